from .load_content import Command as LoadContent


class Command(LoadContent):
    """The command's first name, kept for scripts that call it: it loads all the built-in content."""
