/*
 * A made-up module for the handler scanner's test. It imitates the
 * shapes of nginx's command tables, not any real module.
 */

#include <ngx_config.h>

#define WIDGET_MODE_A  1 /* a macro with a comment */

static ngx_conf_enum_t  widget_modes[] = {
    { ngx_string("calm"), 0 },
    { ngx_string("busy"), 1 },
#if (WIDGET_TURBO)
    { ngx_string("turbo"), 2 },
#endif
    { ngx_null_string, 0 }
};

static ngx_conf_bitmask_t  widget_colors[] = {
    { ngx_string("red"), 0x01 },
    { ngx_string("dark-blue"), 0x02 },
    { ngx_null_string, 0 }
};

static ngx_conf_num_bounds_t  widget_level_bounds = {
    ngx_conf_check_num_bounds, 2, 7
};

static ngx_conf_post_t  widget_size_post = { widget_size_check };
static ngx_conf_post_handler_pt  widget_gap_p = widget_gap_check;

static ngx_conf_deprecated_t  widget_old_name = {
    ngx_conf_deprecated, "widget_old", "widget_new"
};

static char *widget_custom(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);

static ngx_command_t  widget_commands[] = {

    { ngx_string("widget_enabled"),
      NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, enabled),
      NULL },

    { ngx_string("widget_mode"),   /* "widget_fake" in a comment */
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_enum_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, mode),
      &widget_modes },

    { ngx_string("widget_colors"),
      NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      ngx_conf_set_bitmask_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, colors),
      widget_colors },

    { ngx_string("widget_level"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_num_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, level),
      &widget_level_bounds },

    { ngx_string("widget_size"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, size),
      &widget_size_post },

    { ngx_string("widget_gap"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, gap),
      &widget_gap_p },

    { ngx_string("widget_old"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, timeout),
      &widget_old_name },

    { ngx_string("widget_custom"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE12,
      widget_custom,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

#if (WIDGET_A)
    { ngx_string("widget_twice"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_sec_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, a),
      NULL },
#else
    { ngx_string("widget_twice"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(widget_conf_t, a),
      NULL },
#endif

      ngx_null_command
};

/* Not listed by any module: must be ignored. */
static ngx_command_t  widget_unused_commands[] = {
    { ngx_string("widget_dead"),
      NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      0, 0, NULL },
      ngx_null_command
};

ngx_module_t  ngx_http_widget_module = {
    NGX_MODULE_V1,
    &widget_module_ctx,
    widget_commands,
    NGX_HTTP_MODULE,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NGX_MODULE_V1_PADDING
};
