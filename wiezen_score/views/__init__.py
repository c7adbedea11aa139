"""Pure presenters: values from the core or the ledger in, text (tables, CSV, HTML, SVG) out. No I/O, no SQL."""
