"""The text-search document for PostgreSQL: a stored column that the index and the queries share."""

# The column is generated from the source path, title and body (migration 0030: slashes, dots
# and underscores split a path into words, "payouts-team", "retry") and indexed by GIN
# (`refl_search`). It is computed once when a row is written, and PostgreSQL keeps it current
# as the text changes. An index on the expression instead would have ANALYZE compute it again
# for every sampled row (1.3 of 1.5 s after importing 7,729 reflections), and a query that
# filters or ranks by it compute it again per row. Qualified, to stay unambiguous inside joins.
# The model does not declare the column: SQLite has no text search and searches by substring
# (reflections.selectors.reflections.search_text).
SEARCH_DOCUMENT_SQL = '"reflections_reflection"."search_document"'
