"""Camel Up: naive references, goldens and the game's tests."""
