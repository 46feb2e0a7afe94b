"""The text-search document for PostgreSQL: one expression shared by the index and the query."""

# Slashes, dots and underscores split a source path into words ("payouts-team", "retry").
# Columns are qualified so the expression stays unambiguous inside joins; PostgreSQL matches
# it against the index expression after parsing, where qualification does not matter.
SEARCH_DOCUMENT_SQL = (
    "to_tsvector('english'::regconfig, "
    "translate(\"reflections_reflection\".\"source_path\", '/._', '   ') || ' ' || "
    '"reflections_reflection"."title" || \' \' || "reflections_reflection"."body")'
)
