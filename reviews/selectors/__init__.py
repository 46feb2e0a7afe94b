"""Reads for the review pages: cycles and queues, the evidence beside an item, the export."""
