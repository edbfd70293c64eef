"""Every write to a game goes through these functions: one transaction, the
game row locked first, the engine applied, the version bumped, side effects
after commit."""
