"""Bots that fill empty seats and play through the same services as people."""
