"""sign-in devices and password renewal (issue 24)

Revision ID: 0015_sign_in_devices_passwords
Revises: 0014_languages
Create Date: 2026-12-07 14:00:00

login_failures.device: the remembered device a password check came from (the id
in its signed device cookie), so its failures count against that device only.
users.password_change_due: set at sign-in when the password typed breaks the
password rule; the user changes it before using any other page.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015_sign_in_devices_passwords"
down_revision = "0014_languages"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("device", sa.String(length=32), nullable=True))
        batch_op.create_index("ix_login_failures_device_at", ["device", "at"], unique=False)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("password_change_due", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("password_change_due")
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_index("ix_login_failures_device_at")
        batch_op.drop_column("device")
