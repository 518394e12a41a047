"""Five Tribes: naive references, goldens and the game's tests."""
