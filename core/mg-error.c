/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-error.h"

G_DEFINE_QUARK(mg - error - quark, mg_error)
