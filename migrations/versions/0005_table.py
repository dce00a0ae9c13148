"""table: the player's game, its balance of play chips and the hands played

Revision ID: 0005_table
Revises: 0004_security
Create Date: 2026-12-02 19:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005_table"
down_revision = "0004_security"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("balance_cents", sa.Integer(), nullable=False),
        sa.Column("starting_cents", sa.Integer(), nullable=False),
        sa.Column("last_bet_cents", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("balance_cents >= 0", name=op.f("ck_player_games_balance")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"],
            name=op.f("fk_player_games_user_id_users"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_games")),
    )
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.create_index(
            "ix_player_games_user_id_started_at", ["user_id", "started_at"], unique=False
        )

    op.create_table(
        "game_hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("house_way", sa.String(length=64), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("bet_cents", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("player_cards", sa.JSON(), nullable=False),
        sa.Column("banker_cards", sa.JSON(), nullable=False),
        sa.Column("used_house_way", sa.Boolean(), nullable=False),
        sa.Column("player_back", sa.JSON(), nullable=True),
        sa.Column("player_front", sa.JSON(), nullable=True),
        sa.Column("house_back", sa.JSON(), nullable=True),
        sa.Column("house_front", sa.JSON(), nullable=True),
        sa.Column("house_rule", sa.String(length=64), nullable=True),
        sa.Column("banker_back", sa.JSON(), nullable=True),
        sa.Column("banker_front", sa.JSON(), nullable=True),
        sa.Column("banker_rule", sa.String(length=64), nullable=True),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.Column("commission_cents", sa.Integer(), nullable=True),
        sa.Column("net_cents", sa.Integer(), nullable=True),
        sa.Column("house_outcome", sa.String(length=8), nullable=True),
        sa.Column("house_net_cents", sa.Integer(), nullable=True),
        sa.Column("balance_after_cents", sa.Integer(), nullable=True),
        sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('dealt', 'settled')", name=op.f("ck_game_hands_state")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["player_games.id"],
            name=op.f("fk_game_hands_game_id_player_games"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_hands")),
        sa.UniqueConstraint("game_id", "number", name=op.f("uq_game_hands_game_id_number")),
    )


def downgrade():
    op.drop_table("game_hands")
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.drop_index("ix_player_games_user_id_started_at")
    op.drop_table("player_games")
