"""Tests of the robotstxt Python package: python3 -m unittest discover -s tests -t . (in python/, with PYTHONPATH=.)."""
