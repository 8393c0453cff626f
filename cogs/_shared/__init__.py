"""Small pieces several cogs use; cogs never import each other, only this package."""
