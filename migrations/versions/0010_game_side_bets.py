"""game side bets: the player's game takes a side bet (the Fortune bonus, the profile's table)

Revision ID: 0010_game_side_bets
Revises: 0009_manager_role
Create Date: 2026-12-03 13:10:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010_game_side_bets"
down_revision = "0009_manager_role"
branch_labels = None
depends_on = None

HAND_COLUMNS = (
    ("bonus_table", sa.String(length=64)),
    ("bonus_bet_cents", sa.Integer()),
    ("bonus_rule", sa.String(length=64)),
    ("bonus_win_cents", sa.Integer()),
    ("bonus_net_cents", sa.Integer()),
)


def upgrade():
    # Nullable columns only: existing hands had no side bet and keep None.
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_bonus_cents", sa.Integer(), nullable=True))
    with op.batch_alter_table("game_hands", schema=None) as batch_op:
        for name, type_ in HAND_COLUMNS:
            batch_op.add_column(sa.Column(name, type_, nullable=True))


def downgrade():
    with op.batch_alter_table("game_hands", schema=None) as batch_op:
        for name, _type in reversed(HAND_COLUMNS):
            batch_op.drop_column(name)
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.drop_column("last_bonus_cents")
