# SPDX-License-Identifier: GPL-3.0-or-later
"""Pages of the MAC privacy app."""

import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import get_language, to_locale
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
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


# The last check on the link, in words (`macguise status` gives these ids).
VERDICTS = {
    None: gettext_lazy('not checked yet'),
    'none': gettext_lazy('not checked yet'),
    'clean': gettext_lazy('no other device uses it'),
    'conflict': gettext_lazy('another device uses it'),
    'unchecked': gettext_lazy('could not be checked'),
}


# What `macguise rotate` did, in words, when it did not rotate.
ROTATION_OUTCOMES = {
    'pending': gettext_lazy('a new address once the write under way is done'),
    'not-managed': gettext_lazy('macguise leaves this connection alone'),
    'failed': gettext_lazy('no new address could be written'),
}


def _verdict(profile):
    """The last check's verdict, in the page's language."""
    verdict = (profile.get('check') or {}).get('verdict')
    return VERDICTS.get(verdict, verdict)


def keeps_router_address(profile):
    """Whether a router may know the box by this connection's address: a
    wired connection the box does not share (FreedomBox's Internet
    connection), or one that keeps its address. A new address there
    breaks the router's address reservation and port forwarding, so the
    app asks first."""
    return profile.get('kind') == 'ethernet' or profile.get('rotate') == 'never'


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
             verdict=_verdict(profile))
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

    def get_form(self, *args, **kwargs):
        """No form without the current defaults: one shown with every list
        at its first choice would write all of them."""
        if self.overview is None:
            return None
        return super().get_form(*args, **kwargs)

    def post(self, request, *args, **kwargs):
        if self.overview is None and 'app_enable_disable_button' not in request.POST:
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)

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
        if not form.confirmed(changes):
            return self.form_invalid(form)
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
        except Exception as exception:  # noqa: BLE001, shown on the page
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
        kwargs['asks_first'] = keeps_router_address(self.profile)
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
            'verdict': _verdict(self.profile),
            'asks_first': keeps_router_address(self.profile),
            'kept_hardened': bool(audit and audit[0].get('kept_hardened')),
            'uuid': self.uuid,
        })
        return context

    def form_valid(self, form):
        changes = form.changes()
        if not form.confirmed(changes):
            return self.form_invalid(form)
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
    """"Rotate now": at once, or where a router may know the box by the
    address (keeps_router_address), after a page that says what changes
    for the router and a second press."""

    def _profile(self, uuid):
        profiles = privileged.status(uuid, _language()).get('profiles', [])
        if not profiles:
            raise Http404
        return profiles[0]

    def get(self, request, uuid):
        try:
            profile = self._profile(uuid)
        except privileged.MacguiseError as exception:
            if exception.error_id == 'not-found':
                raise Http404 from exception
            _show_error(request, exception)
            return redirect(reverse('macguise:index'))
        return TemplateResponse(request, 'macguise_rotate.html', {
            'title': profile['id'],
            'profile': profile,
            'uuid': uuid,
        })

    def post(self, request, uuid):
        if request.POST.get('confirm') != 'yes':
            try:
                asks_first = keeps_router_address(self._profile(uuid))
            except Exception:  # noqa: BLE001, the action says why
                asks_first = False
            if asks_first:
                return redirect(reverse('macguise:rotate', args=[uuid]))
        return super().post(request, uuid)

    def act(self, uuid):
        return privileged.rotate(uuid, _language())

    @staticmethod
    def done(result):
        outcome = (result.get('profiles') or [{}])[0].get('outcome')
        if outcome == 'rotated':
            return _('The connection has a new address.')
        return _('Nothing to change: {outcome}').format(
            outcome=ROTATION_OUTCOMES.get(outcome, outcome))


class HardenView(_ProfileAction):
    """"Apply fixes"."""

    def act(self, uuid):
        return privileged.harden(uuid, _language())

    @staticmethod
    def done(result):
        fixed = sum(
            len(p.get('fixes', [])) for p in result.get('profiles', []))
        return _('Fixes applied: {count}').format(count=fixed)
