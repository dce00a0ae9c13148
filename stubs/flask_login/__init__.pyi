from flask_login.login_manager import LoginManager as LoginManager
from flask_login.mixins import UserMixin as UserMixin
from flask_login.utils import current_user as current_user
from flask_login.utils import login_required as login_required
from flask_login.utils import login_url as login_url
from flask_login.utils import login_user as login_user
from flask_login.utils import logout_user as logout_user
