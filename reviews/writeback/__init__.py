"""Writing a review's deprecation back into a reflection's source text, one module per format:
pure functions, text in, text out, so the agent runtime that reads the files honours the verdict.

Every writer edits the text in place rather than re-serialising it: other keys, their order,
comments and the file's indentation stay as the author wrote them. Each result is parsed again
and compared with what it must hold before it is returned, and writing back twice gives the
same text as writing back once. Restoring (a verdict undone or changed to keep) is the inverse.
"""
