# SPDX-License-Identifier: GPL-3.0-or-later
"""Run inside the test's mount namespace, before FreedomBox's web service
starts: FreedomBox's own database made, every app but ours marked as set up
(their setup installs packages and configures the machine), the first-boot
wizard marked done, the login ticket's key pair made (up to 25.x), and an
administrator made. Prints {"server_dir": FreedomBox's URL prefix} as JSON.

FreedomBox's Python package is `freedombox` from 26.x, `plinth` before.

Usage: plinth_prepare.py USER PASSWORD
"""
import importlib
import importlib.util
import json
import sys



def holds_freedombox(name):
    try:
        return importlib.util.find_spec(f"{name}.app") is not None
    except ImportError:
        return False


FREEDOMBOX = "freedombox" if holds_freedombox("freedombox") else "plinth"


def fbx(name):
    return importlib.import_module(f"{FREEDOMBOX}.{name}")


app_module, cfg, kvstore, module_loader, web_framework = (
    fbx(name) for name in ("app", "cfg", "kvstore", "module_loader", "web_framework"))

cfg.read()
web_framework.init()
web_framework.post_init()
module_loader.load_modules()
app_module.apps_init()
for app in app_module.App.list():
    if app.app_id != 'macguise':
        app.set_setup_version(app.info.version)
kvstore.set('firstboot_completed', 1)

# The one piece of another app's setup a login needs up to 25.x: the single
# sign-on key pair FreedomBox signs its login ticket with (a privileged
# action). 26.x has no sso app.
if importlib.util.find_spec(f"{FREEDOMBOX}.modules.sso"):
    fbx("modules.sso.privileged").create_key_pair()

from django.contrib.auth.models import Group, User  # noqa: E402

user = User.objects.create_user(sys.argv[1], password=sys.argv[2])
user.groups.add(Group.objects.get_or_create(name='admin')[0])
print(json.dumps({"server_dir": cfg.server_dir}))
