#!/bin/sh
# SPDX-License-Identifier: MIT
# The garnet executable from the outside: options, garnet.ini errors with file and line,
# XDG_RUNTIME_DIR checks, clean shutdown on SIGTERM, and the screenshot ./run relies on.
# usage: garnet-cli-test.sh GARNET GARNET_DEMO DEFAULT_INI   (TAP output)
set -u
garnet=$1
demo=$2
default_ini=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-cli-XXXXXX")
trap 'rm -rf "$work"' EXIT
runtime="$work/runtime"
mkdir -m 0700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
unset WAYLAND_DISPLAY
n=0
failed=0
echo "1..20"

result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

# expect_error NAME PATTERN ARGS...: garnet exits 1 and stderr matches PATTERN
expect_error() {
	name=$1
	pattern=$2
	shift 2
	"$garnet" "$@" >"$work/out" 2>"$work/err"
	status=$?
	if [ $status -eq 1 ] && grep -q -- "$pattern" "$work/err"; then
		result 0 "$name"
	else
		echo "# status $status, stderr:"; sed 's/^/# /' "$work/err"
		result 1 "$name"
	fi
}

"$garnet" --help >"$work/out" 2>&1 && grep -q -- "--backend" "$work/out" &&
	grep -q -- "--no-config" "$work/out"
result $? "help_lists_options"

"$garnet" --version | grep -q "^garnet [0-9]"
result $? "version_prints_version"

printf '[core]\nrepaint-window=7\n\n[output]\nmode=800x600\nscale=banana\n' >"$work/bad-scale.ini"
expect_error "config_error_names_file_and_line" "bad-scale.ini:6: scale 'banana'" \
	--config "$work/bad-scale.ini"

printf '# comment\n[nonsense]\nkey=value\n' >"$work/bad-section.ini"
expect_error "unknown_section_is_an_error_with_line" "bad-section.ini:3: unknown section" \
	--config "$work/bad-section.ini"

printf '[shell]\nbinding=super+Return exec foot\nbinding=hyper+q close\n' >"$work/bad-binding.ini"
expect_error "bad_binding_names_line" "bad-binding.ini:3: binding: unknown modifier 'hyper'" \
	--config "$work/bad-binding.ini"

printf '[shell]\nbinding=super+x explode\n' >"$work/bad-action.ini"
expect_error "unknown_binding_action_names_line" \
	"bad-action.ini:2: binding: unknown action 'explode' (exec, launch, shortcut" \
	--config "$work/bad-action.ini"

printf '[shortcuts]\nplay-pause=XF86AudioPlay\nmute=hyper+m\n' >"$work/bad-shortcut.ini"
expect_error "bad_shortcut_key_names_line" "bad-shortcut.ini:3: binding: unknown modifier 'hyper'" \
	--config "$work/bad-shortcut.ini"

printf '[panel]\nlauncher=Terminal:foot\nlauncher=foot\n' >"$work/bad-panel.ini"
expect_error "panel_launcher_without_a_name_names_line" \
	"bad-panel.ini:3: \\[panel\\] launcher=foot: want NAME:COMMAND" --config "$work/bad-panel.ini"
printf '[panel]\nlauncher=Terminal:foot\nlauncher=Terminal:xterm\n' >"$work/twice-panel.ini"
expect_error "panel_launcher_named_twice_names_line" \
	"twice-panel.ini:3: \\[panel\\] launcher 'Terminal' given twice" --config "$work/twice-panel.ini"

printf '[shell]\nbuiltin-cursor=false\nbuiltin-cursor=sometimes\n' >"$work/bad-cursor.ini"
expect_error "bad_builtin_cursor_names_line" \
	"bad-cursor.ini:3: builtin-cursor 'sometimes' is not true or false" --config "$work/bad-cursor.ini"

printf '[shell]\ncast-list-seconds=4294967306\n' >"$work/bad-cast-list.ini"
expect_error "a_cast_list_time_beyond_a_day_names_line" \
	"bad-cast-list.ini:2: cast-list-seconds '4294967306' is not seconds from 0 to 86400" \
	--config "$work/bad-cast-list.ini"
printf '[shell]\nbinding=super+shift+Escape show-casts\nbinding=super+x show-casts now\n' \
	>"$work/show-casts.ini"
expect_error "show_casts_is_an_action_and_takes_no_argument" \
	"show-casts.ini:3: binding: show-casts takes no argument" --config "$work/show-casts.ini"

expect_error "unknown_backend_is_refused" "backend 'vulkan' is not available" \
	--no-config --backend=vulkan

chmod 0755 "$runtime"
expect_error "open_runtime_dir_is_refused" "mode 0700" --no-config
chmod 0700 "$runtime"

# SIGTERM: a clean exit (status 0) and the socket removed.
"$garnet" --no-config --socket=garnet-cli-term >"$work/term.out" 2>"$work/term.err" &
pid=$!
i=0
while ! grep -q WAYLAND_DISPLAY "$work/term.out" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
status=$?
[ $status -eq 0 ] && [ ! -e "$runtime/garnet-cli-term" ] && grep -q "shutting down" "$work/term.err"
result $? "sigterm_shuts_down_cleanly"

grep -q "WAYLAND_DISPLAY=garnet-cli-term" "$work/term.out"
result $? "prints_wayland_display"

# What ./run does without a terminal: demo client, screenshot, exit 0.
"$garnet" --no-config --width=320 --height=240 --autostart="$demo" \
	--screenshot="$work/shot.png" --oneshot >"$work/shot.out" 2>"$work/shot.err" </dev/null
status=$?
[ $status -eq 0 ] && [ -s "$work/shot.png" ] && grep -q "written to $work/shot.png" "$work/shot.out" &&
	head -c 8 "$work/shot.png" | od -An -c | grep -q "P   N   G"
result $? "oneshot_screenshot_with_demo_client"

# --log and --debug: the log goes to the file, with debug lines.
"$garnet" --no-config --log="$work/garnet.log" --debug --autostart="$demo" \
	--screenshot="$work/log.png" --oneshot >"$work/log.out" 2>"$work/log.err" </dev/null
status=$?
[ $status -eq 0 ] && grep -q "info output: HEADLESS-1" "$work/garnet.log" &&
	grep -q "debug output: HEADLESS-1: repaint" "$work/garnet.log" &&
	! grep -q "info output" "$work/log.err"
result $? "log_option_writes_debug_log_to_file"

# The shipped default configuration is valid.
"$garnet" --config "$default_ini" --autostart="$demo" --screenshot="$work/default.png" --oneshot \
	>"$work/default.out" 2>"$work/default.err" </dev/null
status=$?
[ $status -eq 0 ] && grep -q "read $default_ini" "$work/default.err"
result $? "default_garnet_ini_is_valid"

# Each [output] section is an output of its own, one without keys too (Debian's inih does not
# tell the handler that a section starts; garnet counts the headers itself).
printf '[output]\nmode=800x600\n\n[output]\nmode=640x480\n[output]\n' >"$work/outputs.ini"
"$garnet" --config "$work/outputs.ini" --autostart="$demo" --screenshot="$work/outputs.png" \
	--oneshot >"$work/outputs.out" 2>"$work/outputs.err" </dev/null
status=$?
[ $status -eq 0 ] && grep -q "HEADLESS-1: 800x600" "$work/outputs.err" &&
	grep -q "HEADLESS-2: 640x480" "$work/outputs.err" &&
	grep -q "HEADLESS-3: 1024x768" "$work/outputs.err" && ! grep -q "HEADLESS-4" "$work/outputs.err"
result $? "each_output_section_is_an_output"

exit $failed
