/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The service object's name alone (mg-service.h declares its type), for
 * the headers of the files that make it up: they depend on it, not on the
 * object's interface. */
#pragma once

typedef struct _MgService MgService;
/* The follower's (mg-service-follow.h), which the service's core holds. */
typedef struct _MgFollower MgFollower;
