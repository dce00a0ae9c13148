"""house-way versions: custom ways, drafts, published versions, preset snapshots, class tables (issue 18)

Revision ID: 0012_house_way_versions
Revises: 0011_custom_profiles
Create Date: 2026-12-03 15:10:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012_house_way_versions"
down_revision = "0011_custom_profiles"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "custom_house_ways",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("casino", sa.String(length=120), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("base_ref", sa.String(length=64), nullable=True),
        sa.Column("draft", sa.JSON(), nullable=False),
        sa.Column("draft_digest", sa.String(length=64), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"],
            name=op.f("fk_custom_house_ways_created_by_id_users"), ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["updated_by_id"], ["users.id"],
            name=op.f("fk_custom_house_ways_updated_by_id_users"), ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_custom_house_ways")),
        sa.UniqueConstraint("slug", name=op.f("uq_custom_house_ways_slug")),
    )
    op.create_table(
        "house_way_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("way_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("rules_digest", sa.String(length=64), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("published_by_id", sa.Integer(), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("check", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["way_id"], ["custom_house_ways.id"],
            name=op.f("fk_house_way_versions_way_id_custom_house_ways"), ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["published_by_id"], ["users.id"],
            name=op.f("fk_house_way_versions_published_by_id_users"), ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_house_way_versions")),
        sa.UniqueConstraint("ref", name=op.f("uq_house_way_versions_ref")),
        sa.UniqueConstraint("way_id", "number", name=op.f("uq_house_way_versions_way_id_number")),
    )
    with op.batch_alter_table("house_way_versions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_house_way_versions_way_id"), ["way_id"],
                              unique=False)
        batch_op.create_index(batch_op.f("ix_house_way_versions_rules_digest"),
                              ["rules_digest"], unique=False)
    op.create_table(
        "house_way_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("rules_digest", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_house_way_snapshots")),
        sa.UniqueConstraint("ref", "rules_digest", name=op.f("uq_house_way_snapshots_ref_rules_digest")),
    )
    op.create_table(
        "house_way_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rules_digest", sa.String(length=64), nullable=False),
        sa.Column("wheel", sa.String(length=32), nullable=False),
        sa.Column("rule_ids", sa.JSON(), nullable=False),
        sa.Column("split", sa.LargeBinary(), nullable=False),
        sa.Column("rule", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_house_way_tables")),
        sa.UniqueConstraint("rules_digest", "wheel",
                            name=op.f("uq_house_way_tables_rules_digest_wheel")),
    )
    # What each session, exam and game hand grades by: the rules digest beside the ref.
    for table in ("drill_sessions", "certification_exams", "game_hands"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("house_way_digest", sa.String(length=64),
                                          nullable=True))


def downgrade():
    # Sessions, exams and hands keep their refs; a ref to a custom version then names a
    # house way that is no longer stored (the app reads it as unknown).
    for table in ("game_hands", "certification_exams", "drill_sessions"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("house_way_digest")
    op.drop_table("house_way_tables")
    op.drop_table("house_way_snapshots")
    with op.batch_alter_table("house_way_versions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_house_way_versions_rules_digest"))
        batch_op.drop_index(batch_op.f("ix_house_way_versions_way_id"))
    op.drop_table("house_way_versions")
    op.drop_table("custom_house_ways")
