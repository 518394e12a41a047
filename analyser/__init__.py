"""Games as a person sees them: positions, notation, validation, legal actions, EV tables."""
