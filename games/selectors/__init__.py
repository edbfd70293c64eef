"""Every read of a game for a viewer: what that viewer may see, and nothing more."""
