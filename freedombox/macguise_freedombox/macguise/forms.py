# SPDX-License-Identifier: GPL-3.0-or-later
"""Forms of the MAC privacy app: the choices macguise offers, in plain
words."""

from django import forms
from django.utils.translation import gettext_lazy as _

MODE_CHOICES = [
    ('plausible', _('An ordinary address from a common maker')),
    ('keep-vendor', _('An ordinary address from the card\'s own maker')),
    ('off', _('The card\'s own address (no privacy)')),
]

ROTATE_CHOICES = [
    ('daily', _('A new address every day')),
    ('weekly', _('A new address every week')),
    ('activation', _('A new address every time it connects')),
    ('boot', _('A new address every time the box starts')),
    ('never', _('One address, kept (for port forwarding and address '
                'reservations)')),
]

HARDEN_CHOICES = [
    ('yes', _('Yes: keep the name and other identifiers off the network')),
    ('no', _('No: leave the connection\'s other settings alone')),
]

# A profile's own setting, or "" for the class default.
DEFAULT = ''

CONFIRM_LABEL = _(
    'I know the router will see the box as a new device: I will renew its '
    'address reservation and port forwarding for the new address')
CONFIRM_HELP = _(
    'A router that reserves an address for the box, or forwards ports to '
    'it, knows it by this address. With a new one, the box gets another '
    'address from the router and the services it offers are out of reach '
    'from the Internet until the reservation and port forwarding name the '
    'new address.')


def _confirm_field():
    return forms.BooleanField(label=CONFIRM_LABEL, help_text=CONFIRM_HELP,
                              required=False)


def _changes_address(settings):
    """Whether @settings ({key: value}) change the address a router knows:
    another kind of address, or a schedule other than keeping it."""
    return 'mode' in settings or settings.get('rotate', 'never') != 'never'


def _confirmed(form, settings):
    """Whether @settings may be written: they leave the router's address
    alone, or the owner ticked the confirmation."""
    if 'confirm' not in form.fields or not _changes_address(settings):
        return True
    if form.cleaned_data.get('confirm'):
        return True
    form.add_error('confirm', _('Tick this to change the address the router '
                                'knows.'))
    return False


def _with_current(choices, current):
    """@choices, plus @current when the command line set a value the page
    does not offer (such as rotate=36h), so saving the form keeps it."""
    if current and current not in dict(choices):
        return choices + [(current, current)]
    return choices


def _with_default(choices, default_value):
    """@choices after a "Default" entry naming what the default is now."""
    label = dict(choices).get(default_value, default_value)
    return [(DEFAULT, _('Default: {setting}').format(setting=label))
            ] + choices


class DefaultsForm(forms.Form):
    """What every connection of each kind gets unless set otherwise."""

    KINDS = [
        ('wifi', _('Wi-Fi connections')),
        ('ethernet', _('Wired connections')),
        ('ethernet-shared', _('Wired networks the box shares (its own LAN)')),
        ('ap', _('Wi-Fi hotspots')),
    ]

    def __init__(self, *args, current=None, **kwargs):
        super().__init__(*args, **kwargs)
        current = current or {}
        for kind, label in self.KINDS:
            values = current.get(kind, {})
            self.fields[f'{kind}__mode'] = forms.ChoiceField(
                label=_('{kind}: address').format(kind=label),
                choices=_with_current(MODE_CHOICES, values.get('mode')))
            self.fields[f'{kind}__rotate'] = forms.ChoiceField(
                label=_('{kind}: change it').format(kind=label),
                choices=_with_current(ROTATE_CHOICES, values.get('rotate')))
        # the wired kind is FreedomBox's Internet connection's
        self.fields['confirm'] = _confirm_field()

    def confirmed(self, changes):
        """Whether @changes may be written (the wired kind's address)."""
        return _confirmed(self, changes.get('ethernet', {}))

    def changes(self, initial):
        """{kind: {key: value}} for what the owner changed."""
        result = {}
        for name, value in self.cleaned_data.items():
            if name == 'confirm':
                continue
            if initial.get(name) != value:
                kind, key = name.split('__', 1)
                result.setdefault(kind, {})[key] = value
        return result


class ProfileForm(forms.Form):
    """One connection's own settings; "Default" follows the class."""

    def __init__(self, *args, policy=None, class_defaults=None,
                 device_class=None, vendors=None, asks_first=False,
                 **kwargs):
        super().__init__(*args, **kwargs)
        settings = (policy or {}).get('settings', {})
        class_defaults = class_defaults or {}

        def setting(key):
            """The profile's own value ("" if none) and the default."""
            entry = settings.get(key, {})
            own = entry.get('value') if entry.get('source') == 'profile' \
                else DEFAULT
            return own, class_defaults.get(key, entry.get('value'))

        mode, mode_default = setting('mode')
        rotate, rotate_default = setting('rotate')
        harden, harden_default = setting('harden')
        self.fields['mode'] = forms.ChoiceField(
            label=_('Address'), required=False, choices=_with_default(
                _with_current(MODE_CHOICES, mode), mode_default))
        self.fields['rotate'] = forms.ChoiceField(
            label=_('Change it'), required=False, choices=_with_default(
                _with_current(ROTATE_CHOICES, rotate), rotate_default))
        own_vendors = setting('vendors')[0]
        self.fields['vendors'] = forms.MultipleChoiceField(
            label=_('Makers'), required=False,
            widget=forms.CheckboxSelectMultiple,
            choices=_vendor_choices(vendors or [], device_class,
                                    own_vendors), help_text=_(
                'Draw addresses only from the makers ticked; none ticked: '
                'the default. The share is how common the maker\'s cards '
                'are in real machines of this kind.'))
        self.fields['harden'] = forms.ChoiceField(
            label=_('Hide other identifiers'), required=False,
            choices=_with_default(HARDEN_CHOICES, harden_default))
        if device_class == 'ap':
            self.fields['quiet_hours'] = forms.CharField(
                label=_('Quiet hours'), required=False, help_text=_(
                    'When the hotspot may change its address, as local time '
                    'such as 03:00-05:00, so nobody using it is cut off '
                    'during the day; "none" for any time. Empty: the '
                    'default.'))
        if asks_first:
            self.fields['confirm'] = _confirm_field()
        self.initial_values = {
            'mode': mode,
            'rotate': rotate,
            'vendors': _vendor_list(own_vendors),
            'harden': harden,
            'quiet_hours': setting('quiet-hours')[0],
        }

    def confirmed(self, changes):
        """Whether @changes may be written: where a router may know the box
        by this address, one that changes it needs the confirmation."""
        return _confirmed(self, changes)

    def changes(self):
        """{key: value} for `macguise policy`; "" returns a key to its
        default."""
        result = {}
        for name, value in self.cleaned_data.items():
            if name == 'confirm':
                continue
            before = self.initial_values.get(name) or ''
            if isinstance(value, list):
                value, before = ','.join(value), ','.join(before)
            if before != (value or ''):
                result[name.replace('_', '-')] = (value or '').strip()
        return result


def _vendor_list(value):
    """A vendors setting as a list ("any" or none: empty)."""
    if not value or value == 'any':
        return []
    return [vendor for vendor in value.split(',') if vendor]


def _vendor_choices(vendors, device_class, own_value):
    """The catalogue's makers of @device_class, most common first, each
    with its share; and any the profile names that the catalogue lacks, so
    saving keeps them."""
    rows = []
    for vendor in vendors:
        weight = vendor.get('weights', {}).get(device_class)
        if weight:
            rows.append((weight['share'], vendor['id'], vendor['name']))
    rows.sort(reverse=True)
    choices = [(vendor_id,
                _('{name} ({share:.1f} %)').format(name=name,
                                                   share=share * 100))
               for share, vendor_id, name in rows]
    known = {vendor_id for _share, vendor_id, _name in rows}
    choices += [(vendor_id, vendor_id) for vendor_id in _vendor_list(own_value)
                if vendor_id not in known]
    return choices
