# SPDX-License-Identifier: GPL-3.0-or-later
"""macguise's FreedomBox app lives in the subpackage `macguise`: FreedomBox
names an app's URLs, its privileged actions and its modules-enabled entry
after the last part of the import path, which must be the app's id."""
