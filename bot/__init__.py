"""Magisterium AI for Discord."""
