"""Tests of the shared machinery: the common face, seeds, install, caches, reports."""
