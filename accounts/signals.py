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
