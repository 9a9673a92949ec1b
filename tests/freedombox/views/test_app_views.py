# SPDX-License-Identifier: GPL-3.0-or-later
"""The MAC privacy app's views and privileged actions, tested the way
FreedomBox tests its own apps' views (pytest with pytest-django,
FreedomBox's Django test settings, a RequestFactory request with message
storage, the app's URLs included into FreedomBox's urls), with nothing
mocked: each privileged action goes through sudo and FreedomBox's actions
runner (its privileged daemon in 26.x) to the real macguise command, which talks to the test's NetworkManager and
macguised. tests/freedombox/test-plinth.py sets that up (FreedomBox
installed into an overlay, the private bus at /run/dbus) and runs this."""

import json
import subprocess
import time
import uuid as uuid_module
from unittest.mock import patch

import pytest
from django import urls
from django.contrib.messages.storage.fallback import FallbackStorage

from macguise_freedombox.macguise import diagnostics, fbx, privileged, views

# FreedomBox's package: `freedombox` from 26.x, `plinth` before
module_loader = fbx.module('module_loader')

pytestmark = pytest.mark.urls(f'{fbx.NAME}.urls')

PROFILE = 'pytest-office'


@pytest.fixture(autouse=True, scope='module')
def fixture_app_urls():
    """The app's URLs, as FreedomBox's own view tests include theirs."""
    with patch(f'{fbx.NAME}.module_loader._modules_to_load', new=[]) as modules, \
            patch(f'{fbx.NAME}.urls.urlpatterns', new=[]):
        modules.append('macguise_freedombox.macguise')
        module_loader.include_urls()
        yield


def run(*command):
    return subprocess.run(command, check=True, capture_output=True,
                          text=True, timeout=60).stdout


def macguise(*args):
    return json.loads(run('/usr/bin/macguise', *args, '--json'))


def cloned(name):
    return run('nmcli', '-g', '802-3-ethernet.cloned-mac-address',
               'connection', 'show', name).strip().replace('\\:', ':').lower()


def wait_for(what, predicate, timeout=30):
    """Until @predicate holds (macguised acts on NetworkManager's signals)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f'timed out waiting for {what}'
        time.sleep(0.1)


@pytest.fixture(name='profile', scope='module')
def fixture_profile():
    """An Ethernet profile of its own, with its macguise address."""
    run('nmcli', 'connection', 'add', 'type', 'ethernet', 'ifname', 'veth9',
        'con-name', PROFILE, 'connection.autoconnect', 'no')
    uuid = run('nmcli', '-g', 'connection.uuid', 'connection', 'show',
               PROFILE).strip()
    wait_for('macguised to give it an address', lambda: cloned(PROFILE))
    yield uuid
    run('nmcli', 'connection', 'delete', uuid)


@pytest.fixture(name='app', scope='module')
def fixture_app():
    """The app, as FreedomBox makes it when it loads its apps."""
    from macguise_freedombox.macguise import MacguiseApp
    return MacguiseApp()


def make_request(request, view, **kwargs):
    """Make request with a message storage (as FreedomBox's tests do)."""
    setattr(request, 'session', 'session')
    messages = FallbackStorage(request)
    setattr(request, '_messages', messages)
    response = view(request, **kwargs)
    return response, [str(message) for message in messages]


def test_connection_page_shows_what_macguised_gave(rf, profile):
    request = rf.get(urls.reverse('macguise:profile', args=[profile]))
    response, messages = make_request(request, views.ProfileView.as_view(),
                                      uuid=profile)
    assert response.status_code == 200, messages
    shown = response.context_data['profile']
    assert shown['address'] == cloned(PROFILE), shown
    assert shown['kind'] == 'ethernet' and shown['vendor'], shown
    assert response.context_data['findings'], 'the audit ran'


def test_a_connection_that_does_not_exist_is_not_found(rf):
    missing = str(uuid_module.uuid4())
    request = rf.get(urls.reverse('macguise:profile', args=[missing]))
    with pytest.raises(views.Http404):
        make_request(request, views.ProfileView.as_view(), uuid=missing)


def test_saving_the_settings_writes_the_profile(rf, profile):
    data = {'mode': '', 'rotate': 'never', 'harden': '', 'vendors': []}
    request = rf.post(urls.reverse('macguise:profile', args=[profile]),
                      data=data)
    response, messages = make_request(request, views.ProfileView.as_view(),
                                      uuid=profile)
    assert response.status_code == 302, messages
    assert messages == ['Settings updated']
    policy = macguise('policy', profile)['settings']
    assert policy['rotate'] == {'value': 'never', 'source': 'profile'}, policy


def test_rotate_now_on_a_wired_connection_asks_first(rf, profile):
    before = cloned(PROFILE)
    request = rf.post(urls.reverse('macguise:rotate', args=[profile]))
    response, messages = make_request(request, views.RotateView.as_view(),
                                      uuid=profile)
    assert response.status_code == 302 and messages == [], messages
    assert response.url == urls.reverse('macguise:rotate', args=[profile])
    assert cloned(PROFILE) == before
    request = rf.get(response.url)
    response, messages = make_request(request, views.RotateView.as_view(),
                                      uuid=profile)
    assert response.status_code == 200, messages
    assert response.template_name == 'macguise_rotate.html'
    assert cloned(PROFILE) == before


def test_rotate_now_gives_a_new_address(rf, profile):
    before = cloned(PROFILE)
    request = rf.post(urls.reverse('macguise:rotate', args=[profile]),
                      data={'confirm': 'yes'})
    response, messages = make_request(request, views.RotateView.as_view(),
                                      uuid=profile)
    assert response.status_code == 302
    assert response.url == urls.reverse('macguise:profile', args=[profile])
    assert messages == ['The connection has a new address.'], messages
    assert cloned(PROFILE) not in ('', before)


def test_a_new_kind_of_address_on_a_wired_connection_needs_confirming(
        rf, profile):
    data = {'mode': 'keep-vendor', 'rotate': '', 'harden': '', 'vendors': []}
    request = rf.post(urls.reverse('macguise:profile', args=[profile]),
                      data=data)
    response, messages = make_request(request, views.ProfileView.as_view(),
                                      uuid=profile)
    assert response.status_code == 200, messages
    assert 'confirm' in response.context_data['form'].errors
    policy = macguise('policy', profile)['settings']
    assert policy['mode']['source'] == 'default', policy
    request = rf.post(urls.reverse('macguise:profile', args=[profile]),
                      data=dict(data, confirm='on'))
    response, messages = make_request(request, views.ProfileView.as_view(),
                                      uuid=profile)
    assert response.status_code == 302, messages
    policy = macguise('policy', profile)['settings']
    assert policy['mode'] == {'value': 'keep-vendor', 'source': 'profile'}, policy


def test_only_a_connection_uuid_is_a_page(profile):
    # a malformed id is no page (404), never an action's refusal (500)
    for bad in ('-' * 36, 'g' * 36, profile + '\n', profile[:-1]):
        for page in ('', 'rotate/', 'harden/'):
            with pytest.raises(urls.Resolver404):
                urls.resolve(f'/sys/macguise/profile/{bad}/{page}')
    assert urls.resolve(f'/sys/macguise/profile/{profile}/').kwargs == \
        {'uuid': profile}


def test_an_action_takes_the_whole_uuid_and_nothing_after_it(profile):
    with pytest.raises(Exception, match='not a connection UUID'):
        privileged.rotate(profile + '\n', 'en')


def test_one_setting_is_one_setting():
    def text(count, harden):
        profile = {'uuid': str(uuid_module.uuid4()), 'id': 'office',
                   'findings': [{'advice': False}] * count +
                   [{'advice': True}]}
        return _diagnostic_text(diagnostics._linking(profile, harden))
    assert text(1, 'yes') == \
        'Connection office: 1 setting links it across addresses'
    assert text(2, 'yes') == \
        'Connection office: 2 settings link it across addresses'
    assert text(0, 'yes') == \
        'Connection office: nothing links it across addresses'
    assert 'as chosen' in text(2, 'no')


def test_the_app_has_macguiseds_daemon_and_backups_restart_it(app):
    daemon = app.get_component('daemon-macguise')
    assert daemon.unit == 'macguised' and daemon.is_leader
    backup = app.get_component('backup-restore-macguise')
    assert backup.services == ['macguised'], backup.services
    assert backup.manifest['config']['files'] == \
        ['/etc/macguise/macguise.conf']


def test_a_failed_action_is_shown_as_freedombox_shows_errors(rf):
    missing = str(uuid_module.uuid4())
    request = rf.post(urls.reverse('macguise:rotate', args=[missing]))
    response, messages = make_request(request, views.RotateView.as_view(),
                                      uuid=missing)
    assert response.status_code == 302
    assert len(messages) == 1 and messages[0].startswith('macguise: '), \
        messages
    assert missing in messages[0], messages


def test_apply_fixes_hardens_and_macguised_keeps_it(rf, profile):
    request = rf.post(urls.reverse('macguise:harden', args=[profile]))
    response, messages = make_request(request, views.HardenView.as_view(),
                                      uuid=profile)
    assert response.status_code == 302
    assert messages[0].startswith('Fixes applied: '), messages
    audit = macguise('audit', profile)['profiles'][0]
    assert audit['kept_hardened'], audit
    assert not [f for f in audit['findings'] if not f['advice']], audit


@pytest.mark.django_db
def test_app_page_lists_every_connection_with_its_address(rf, app, profile):
    request = rf.get(urls.reverse('macguise:index'))
    request.user = _admin()
    response, messages = make_request(request,
                                      views.MacguiseAppView.as_view())
    assert response.status_code == 200, messages
    rows = {row['profile']['uuid']: row for row in response.context_data['rows']}
    assert rows[profile]['profile']['address'] == cloned(PROFILE), rows[profile]
    listed = {p['uuid'] for p in macguise('status')['profiles']}
    assert set(rows) == listed, (set(rows), listed)
    form = response.context_data['form']
    assert form.initial['wifi__rotate'] == \
        macguise('defaults')['classes']['wifi']['rotate'], form.initial


@pytest.mark.django_db
def test_new_defaults_for_wired_connections_need_confirming(rf, app):
    classes = macguise('defaults')['classes']
    data = {f'{kind}__{key}': classes[kind][key]
            for kind in ('wifi', 'ethernet', 'ethernet-shared', 'ap')
            for key in ('mode', 'rotate')}
    data['ethernet__rotate'] = 'daily'
    request = rf.post(urls.reverse('macguise:index'), data=data)
    request.user = _admin()
    response, messages = make_request(request,
                                      views.MacguiseAppView.as_view())
    assert response.status_code == 200, messages
    assert 'confirm' in response.context_data['form'].errors
    assert macguise('defaults')['classes'] == classes


def _diagnostic_text(result):
    """A result's words: a (text, result) tuple in FreedomBox 23.6, a
    DiagnosticCheck with its parameters apart in 25."""
    if isinstance(result, (list, tuple)):
        return str(result[0])
    return str(result.description).format(**(getattr(result, 'parameters', None) or {}))


def test_diagnostics_report_each_connection(app, profile):
    texts = [_diagnostic_text(result) for result in app.diagnose()]
    assert any(PROFILE in text for text in texts), texts


def _admin():
    from django.contrib.auth.models import User
    return User.objects.create_superuser('pytest-admin', password='x')
