# SPDX-License-Identifier: GPL-3.0-or-later
"""Pages of the MAC privacy app."""

import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import get_language, to_locale
from django.utils.translation import gettext as _
from django.views.generic import FormView, View

from . import fbx, privileged
from .forms import DefaultsForm, ProfileForm

AppView = fbx.module('views').AppView


def _language():
    """The page's language, as the macguise command takes it."""
    return to_locale(get_language() or 'en')


def _show_error(request, exception):
    """A failed action, as FreedomBox shows errors."""
    message = getattr(exception, 'message', None) or str(exception)
    messages.error(request, _('macguise: {message}').format(message=message))


def _next_change(profile):
    """When the profile's address next changes, as a datetime (None when no
    time is set: kept, or at the next connection or start)."""
    at = (profile.get('next_rotation') or {}).get('at')
    if not at:
        return None
    try:
        return datetime.datetime.fromisoformat(at.replace('Z', '+00:00'))
    except ValueError:
        return None


def _split(found):
    """A profile's findings: what Apply fixes mends, and advice."""
    return {
        'findings': [f for f in found if not f['advice']],
        'advice': [f for f in found if f['advice']],
    }


def _rows(overview):
    """The profiles table: status joined with each profile's findings."""
    findings = {
        entry['uuid']: entry['findings']
        for entry in overview['audit'].get('profiles', [])
    }
    return [
        dict(_split(findings.get(profile['uuid'], [])), profile=profile,
             next_rotation=_next_change(profile),
             verdict=(profile.get('check') or {}).get('verdict'))
        for profile in overview['status'].get('profiles', [])
    ]


class MacguiseAppView(AppView):
    """Every connection's address, and the defaults per kind."""

    app_id = 'macguise'
    template_name = 'macguise.html'
    form_class = DefaultsForm

    def dispatch(self, request, *args, **kwargs):
        try:
            self.overview = privileged.overview(_language())
        except Exception as exception:  # noqa: BLE001, shown on the page
            _show_error(request, exception)
            self.overview = None
        return super().dispatch(request, *args, **kwargs)

    def _classes(self):
        if not self.overview:
            return {}
        return self.overview['defaults'].get('classes', {})

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs['current'] = self._classes()
        return kwargs

    def get_initial(self):
        initial = super().get_initial()
        for kind, values in self._classes().items():
            initial[f'{kind}__mode'] = values.get('mode')
            initial[f'{kind}__rotate'] = values.get('rotate')
        return initial

    def get_context_data(self, *args, **kwargs):
        context = super().get_context_data(*args, **kwargs)
        context['overview'] = self.overview
        context['rows'] = _rows(self.overview) if self.overview else []
        return context

    def form_valid(self, form):
        changes = form.changes(form.initial)
        try:
            for kind, settings in changes.items():
                privileged.set_defaults(kind, settings, _language())
        except Exception as exception:  # noqa: BLE001, shown on the page
            _show_error(request=self.request, exception=exception)
        else:
            if changes:
                messages.success(self.request, _('Defaults updated'))
        return super().form_valid(form)


class ProfileView(FormView):
    """One connection: its address, findings and own settings."""

    template_name = 'macguise_profile.html'
    form_class = ProfileForm

    def dispatch(self, request, *args, **kwargs):
        self.uuid = kwargs['uuid']
        try:
            self.details = privileged.profile(self.uuid, _language())
        except privileged.MacguiseError as exception:
            if exception.error_id == 'not-found':
                raise Http404 from exception
            _show_error(request, exception)
            return redirect(reverse('macguise:index'))
        profiles = self.details['status'].get('profiles', [])
        if not profiles:
            raise Http404
        self.profile = profiles[0]
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kind = self.profile.get('kind') or self.profile.get('type')
        kwargs['policy'] = self.details['policy']
        kwargs['class_defaults'] = self.details['defaults'].get(
            'classes', {}).get(kind, {})
        kwargs['device_class'] = self.profile.get('type')
        kwargs['vendors'] = self.details['vendors'].get('vendors', [])
        return kwargs

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if not form.is_bound:
            form.initial = form.initial_values
        return form

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        audit = self.details['audit'].get('profiles', [{}])
        found = audit[0].get('findings', []) if audit else []
        context.update(_split(found))
        context.update({
            'title': self.profile['id'],
            'profile': self.profile,
            'next_rotation': _next_change(self.profile),
            'verdict': (self.profile.get('check') or {}).get('verdict'),
            'kept_hardened': bool(audit and audit[0].get('kept_hardened')),
            'uuid': self.uuid,
        })
        return context

    def form_valid(self, form):
        changes = form.changes()
        if changes:
            try:
                privileged.set_policy(self.uuid, changes, _language())
            except Exception as exception:  # noqa: BLE001, shown
                _show_error(self.request, exception)
                return self.form_invalid(form)
            messages.success(self.request, _('Settings updated'))
        return redirect(
            reverse('macguise:profile', args=[self.uuid]))


class _ProfileAction(View):
    """A button on a connection's page: POST only, back to the page."""

    def post(self, request, uuid):
        try:
            result = self.act(uuid)
        except Exception as exception:  # noqa: BLE001, shown on the page
            _show_error(request, exception)
        else:
            messages.success(request, self.done(result))
        return redirect(reverse('macguise:profile', args=[uuid]))


class RotateView(_ProfileAction):
    """"Rotate now"."""

    def act(self, uuid):
        return privileged.rotate(uuid, _language())

    @staticmethod
    def done(result):
        outcome = (result.get('profiles') or [{}])[0].get('outcome')
        if outcome == 'rotated':
            return _('The connection has a new address.')
        return _('Nothing to change: {outcome}').format(outcome=outcome)


class HardenView(_ProfileAction):
    """"Apply fixes"."""

    def act(self, uuid):
        return privileged.harden(uuid, _language())

    @staticmethod
    def done(result):
        fixed = sum(
            len(p.get('fixes', [])) for p in result.get('profiles', []))
        return _('Fixes applied: {count}').format(count=fixed)
