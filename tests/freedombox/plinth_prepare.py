# SPDX-License-Identifier: GPL-3.0-or-later
"""Run inside the test's mount namespace, before FreedomBox's web service
starts: FreedomBox's own database made, every app but ours marked as set up
(their setup installs packages and configures the machine), the first-boot
wizard marked done, the login ticket's key pair made, and an
administrator made.

Usage: plinth_prepare.py USER PASSWORD
"""
import sys

from plinth import app as app_module
from plinth import cfg, kvstore, module_loader, web_framework

cfg.read()
web_framework.init()
web_framework.post_init()
module_loader.load_modules()
app_module.apps_init()
for app in app_module.App.list():
    if app.app_id != 'macguise':
        app.set_setup_version(app.info.version)
kvstore.set('firstboot_completed', 1)

# The one piece of another app's setup a login needs: the single sign-on
# key pair FreedomBox signs its login ticket with (a privileged action).
from plinth.modules.sso import privileged as sso  # noqa: E402

sso.create_key_pair()

from django.contrib.auth.models import Group, User  # noqa: E402

user = User.objects.create_user(sys.argv[1], password=sys.argv[2])
user.groups.add(Group.objects.get_or_create(name='admin')[0])
