"""The fence: the only place where Fabula leans on another library's private parts.

Each module here opens with what it replaces, what it buys (measured alone, paired old against
new, or the bug it fixes), and the library versions it was checked against; pyproject.toml puts
upper bounds on those libraries, so that a new release is met by ``bin/canary``, not by a user.
Everything else in the project uses the libraries' documented APIs
(``python3 ../shared/tools/private_reaches.py .`` counts what is here).
"""
