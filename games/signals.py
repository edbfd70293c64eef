"""What the core tells the apps around it: the events of a game's life.

Sent by the services inside the transaction that makes the change, under the
game's lock, so a receiver's rows commit (or roll back) with it; a receiver that
starts work outside the database registers it with ``transaction.on_commit``.
The core knows none of its listeners (the apps of statistics and of
notifications): each connects in its own ``AppConfig.ready()``, so the arrows
point one way.
"""

from django.dispatch import Signal

# A rematch holds seats for players of the old table: game (the rematch), user_ids (the holders),
# by (the player who pressed "Play again"), now.
seats_held = Signal()

# A game's creator asked for bots in every empty seat of their new game (the new-game form's "Bots take the empty
# seats"): game, creator. Sent inside the creation's transaction; the bots app seats them (the last starts the game).
bots_wanted = Signal()

# A player took a seat: game, user (the joiner), seats (those seated before), now.
player_joined = Signal()

# The game's state changed (it started, someone acted, a deadline passed):
# game, kind (its GameKind), seats (mirroring ``after``), before (None at the start),
# after, phase_key (tells this phase apart from every other of the game), now, and
# deadline_moved (the game's deadline_at is not what it was before this change).
state_changed = Signal()

# The game is over: game. Sent after ``state_changed`` of the same change.
game_finished = Signal()

# A signed-in person opened the game's page: game, user, now. Outside any game transaction
# (the page reads, it changes no game): notifications count what this page already shows as read.
game_viewed = Signal()

# A player nudged another who must still act (issue 38): game, seat (the nudged one's), by (the nudging user),
# phase_key, now. Sent inside the nudge's transaction; notifications tells the nudged player.
player_nudged = Signal()

# A game paused for too few players present will end as abandoned (issue 38): game, ends_at, user_ids (the
# seated people to tell), now. Sent once, a day before, by the sweep that ends such games.
paused_game_ending = Signal()

# An asynchronous phase's deadline moved with no change of its state (issue 38: a player away or back, the banks
# drawn on): game (its new ``deadline_at``), now. Sent under the game's lock; notifications moves the reminders.
deadline_moved = Signal()
