"""Tests of the signed webhooks."""
