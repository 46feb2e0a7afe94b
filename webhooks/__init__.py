"""Signed webhooks (the Standard Webhooks specification): endpoints admins register, the events
the memory and the review announce, and their deliveries by the task worker."""
