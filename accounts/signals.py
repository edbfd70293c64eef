"""What accounts tell the apps around them about a person's own data.

accounts imports no other app of ours; each app that keeps rows about a person
connects to these in its own ``AppConfig.ready()``, as stats and notifications do
to the games' signals.
"""

from django.dispatch import Signal

# A person asked for their data: user. Each receiver returns a dict of sections
# ({"games": [...]}) holding what its app keeps about the person, and nothing
# about anyone else that the person could not see.
personal_data = Signal()

# A person is deleting their account: user, now. Sent before the account's row is
# emptied (it is inactive already, so no new log-in or request gets through).
# Receivers let go of what the person took part in (leave games not started,
# resign from games in play, as the rules allow) and delete what is only theirs;
# what other people's history needs stays. Each receiver runs in its own
# transactions: leaving a game takes that game's lock.
account_deleting = Signal()

# What the other players see of an account changed: it was deleted (its name is "deleted player" now), or
# its shown name or colour changed: user. Sent inside the transaction that made the change, once the row
# holds it. Every cache that holds names must let go of the old one in every process: the games move on
# the versions their views are cached under.
account_shown_changed = Signal()

# A person said they are away until a moment, or that they are back (issue 38): user, until (None: back),
# previous (the away-until before the change, or None), now. Sent inside the transaction that saved it; the games
# move the deadlines of the phases waiting on them (a phase does not run out while they are away).
away_changed = Signal()
