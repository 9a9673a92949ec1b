# SPDX-License-Identifier: GPL-3.0-or-later
"""URLs of the MAC privacy app."""

from django.urls import re_path

from . import views
from .privileged import UUID_PATTERN

# A connection's UUID, exactly as the privileged actions check it: anything
# else is no page (404), never an action's refusal (500).
_UUID = rf'(?P<uuid>{UUID_PATTERN})'

urlpatterns = [
    re_path(r'^sys/macguise/$', views.MacguiseAppView.as_view(),
            name='index'),
    re_path(rf'^sys/macguise/profile/{_UUID}/$',
            views.ProfileView.as_view(), name='profile'),
    re_path(rf'^sys/macguise/profile/{_UUID}/rotate/$',
            views.RotateView.as_view(), name='rotate'),
    re_path(rf'^sys/macguise/profile/{_UUID}/harden/$',
            views.HardenView.as_view(), name='harden'),
]
