"""custom profiles: table-rules profiles a manager makes by form, and which are offered

Revision ID: 0011_custom_profiles
Revises: 0010_game_side_bets
Create Date: 2026-12-03 13:40:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011_custom_profiles"
down_revision = "0010_game_side_bets"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "table_profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=120), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("offered", sa.Boolean(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"],
            name=op.f("fk_table_profiles_created_by_id_users"), ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_profiles")),
        sa.UniqueConstraint("name", name=op.f("uq_table_profiles_name")),
    )


def downgrade():
    # Groups on a custom profile keep its name; GroupSettings reads an unknown one as
    # the default when read tolerantly. The profiles themselves are lost.
    op.drop_table("table_profiles")
