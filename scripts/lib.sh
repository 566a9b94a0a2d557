# shellcheck shell=bash
# Common helpers for the stage scripts: logging with elapsed time and
# failure reports that name the stage and its log.  Sourced, not run.

: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${T0:=$(date +%s)}"
export TOP BUILD T0

# Variables the harness sets for the commands it starts, never the user:
# a value in the environment of a command started by hand is dropped, so
# that what a command does depends only on the variables make help lists.
# BUILD_LOCKED (build_lock) tells a command started by the harness.
#
# Stopping.  A command started by hand owns everything it starts: Ctrl-C
# (SIGINT to the terminal's process group), SIGTERM (timeout, a CI limit,
# make passing its own on) or SIGHUP stop all of it within seconds
# (run_stop).  Signals alone do not: a job started with & in a
# non-interactive shell ignores SIGINT, and timeout(1) puts QEMU in a
# process group of its own.  So every process the command starts carries
# HARNESS_RUN, a mark of this command, in its environment, which run_stop
# finds in /proc even when its parent is gone.
if [ "${BUILD_LOCKED:-}" != "$BUILD" ]; then
	unset BUILT SEEDS BOOT_DT CC_CCACHE_REAL SUBSERIES LAVA_VALIDATE_LOG KEEP SPARSE BENCH_MEM BUILD_LOCKED HARNESS_RUN
	HARNESS_RUN=$$-$(date +%s%N)
	export HARNESS_RUN
	# (Where run_stop reports: the command's own stderr, whatever a
	# function running at the time has redirected it to.)
	exec 17>&2
	trap 'run_stop INT 130' INT
	trap 'run_stop TERM 143' TERM
	trap 'run_stop HUP 129' HUP
fi

# descendants PID [SKIP]: PID and every live process under it (by parent;
# no zombie), one a line; none of SKIP and the processes under it.
descendants() {
	ps -e -o pid=,ppid=,stat= | awk -v root="$1" -v skip="${2:-}" '
		$3 !~ /^Z/ && $1 != skip { kids[$2] = kids[$2] " " $1 }
		END { q[1] = root; n = 1
			for (i = 1; i <= n; i++) { print q[i]; m = split(kids[q[i]], k, " ")
				for (j = 1; j <= m; j++) q[++n] = k[j] } }'
}

# run_pids: the live processes this command started, one PID a line: those
# under it (descendants) and those whose environment has its HARNESS_RUN
# (an orphan's parent is init).  Never the command itself, nor run_pids'
# own processes; no zombie.
run_pids() (
	self=$BASHPID mark=$HARNESS_RUN
	# (A subshell: the commands of the listing are not marked themselves.)
	export -n HARNESS_RUN
	{
		descendants "$$" "$self"
		grep -lzxF "HARNESS_RUN=$mark" /proc/[0-9]*/environ 2>/dev/null |
			sed -e 's,^/proc/,,' -e 's,/environ$,,' || true
	} | sort -un | awk -v me="$$" '$1 != me'
)

# run_stop NAME STATUS: the INT, TERM and HUP trap of a command started by
# hand.  Every process it started gets SIGTERM, then SIGKILL those still
# there 5 s later; what a stopped stage leaves half-made is removed (an
# extraction's temporary tree; a tree whose series was being applied is
# reset by scripts/stages/tree.sh before it is used); the lock is released
# as the command exits with STATUS (128 + the signal's number).
run_stop() {
	local name=$1 status=$2 pids sig=TERM i list
	trap '' INT TERM HUP
	# (A file, not <(run_pids): that would be one more process under this one.)
	list=$(mktemp)
	printf '\n[%6s] %-8s stopped by SIG%s: ending the processes it started\n' \
		"$(elapsed)" stop "$name" >&17
	for i in $(seq 1 40); do
		run_pids >"$list"
		mapfile -t pids <"$list"
		[ ${#pids[@]} -gt 0 ] || break
		[ "$i" -le 25 ] || sig=KILL
		kill -s "$sig" "${pids[@]}" 2>/dev/null || true
		sleep 0.2
	done
	rm -f "$list"
	if [ ${#pids[@]} -gt 0 ]; then
		printf '[%6s] %-8s still running after SIGKILL: %s\n' "$(elapsed)" stop "${pids[*]}" >&17
	fi
	# (Only a command that holds the lock: another may be using BUILD.)
	if [ "${BUILD_LOCKED:-}" = "$BUILD" ]; then
		rm -rf "$BUILD"/src/*.tmp
		# git's locks in the harness's trees and worktrees: nothing of
		# this command runs, and no other command can hold BUILD.
		find "$BUILD/src" -maxdepth 4 -name index.lock -path '*.git/*' -delete 2>/dev/null || true
		rm -f "$BUILD/.lock.owner"
	fi
	printf '[%6s] %-8s stopped; nothing of it runs\n' "$(elapsed)" stop >&17
	exit "$status"
}

# waited CMD...: run CMD as a job and wait for it; returns its status.  A
# shell runs its trap only once the command in the foreground is done, but
# at once when the wait builtin is interrupted: a long command of the
# command started by hand goes through waited, so that a SIGTERM sent to
# that command alone (make passes its own on) stops it in seconds.  (The
# job's standard input is /dev/null, as for any job of a script.)
waited() {
	"$@" &
	wait "$!"
}

# build_lock ARGS...: take the build folder's lock ($BUILD/.lock) for
# this command and every command it starts, or fail at once naming the
# command that holds it: two commands writing build/ at the same time
# would build in the same O= folders and write each other's results.  A
# command started under the lock (BUILD_LOCKED) holds it already.
build_lock() {
	[ "${BUILD_LOCKED:-}" != "$BUILD" ] || return 0
	mkdir -p "$BUILD"
	exec 19>>"$BUILD/.lock"
	if ! flock -n 19; then
		die lock "" "another command is using $BUILD: $(cat "$BUILD/.lock.owner" 2>/dev/null || echo '(unknown)'); wait for it, or give this one another BUILD="
	fi
	printf '%s, pid %s, since %s\n' "${0#"$TOP"/}${*:+ $*}" "$$" "$(date '+%F %T')" >"$BUILD/.lock.owner"
	BUILD_LOCKED=$BUILD
	export BUILD_LOCKED
}

# elapsed: seconds since the top-level command started, as m:ss
elapsed() {
	local s=$(($(date +%s) - T0))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# say STAGE MESSAGE...: one progress line
say() {
	local stage=$1
	shift
	printf '[%6s] %-8s %s\n' "$(elapsed)" "$stage" "$*"
}

# die STAGE LOG MESSAGE...: report a failed stage and where its log is
die() {
	local stage=$1 log=$2
	shift 2
	printf '[%6s] %-8s FAILED: %s\n' "$(elapsed)" "$stage" "$*" >&2
	if [ -n "$log" ] && [ -f "$log" ]; then
		printf '         log: %s (last lines below)\n' "$log" >&2
		tail -n 20 "$log" | sed 's/^/         | /' >&2
	fi
	exit 1
}

# run_logged STAGE LOG CMD...: run CMD with output to LOG, die on failure
run_logged() {
	local stage=$1 log=$2
	shift 2
	mkdir -p "$(dirname "$log")"
	if ! "$@" >>"$log" 2>&1; then
		die "$stage" "$log" "$*"
	fi
}

# harness ARGS...: scripts/harness.py, the one reader and writer of the
# text the harness parses or produces (the matrix, the sub-series, JUnit,
# the LAVA jobs).
harness() { python3 "$TOP/scripts/harness.py" "$@"; }

# matrix ARGS...: configs/matrix.tsv through harness.py: "rows [--base
# BASE] [--first]" (the row names, or the first one's), "bases [ROW...]",
# "row ROW" (COLUMN<TAB>VALUE lines), "field ROW COLUMN"; a row that is not
# there fails, saying so on stderr.
matrix() { harness matrix --file "$TOP/configs/matrix.tsv" "$@"; }

# series_stamp: a fingerprint of patches/ (the series file and the patches)
series_stamp() {
	find "$TOP/patches" -name '*.patch' -o -name series | sort | xargs cat |
		sha1sum | cut -c1-40
}

# build_seeds BASE KEY: the other build folders of BASE, which a first
# build of KEY may start from (scripts/stages/build.sh, SEEDS).
build_seeds() {
	find "$BUILD/out" -maxdepth 1 -name "$1-*" ! -name "$2" 2>/dev/null | tr '\n' ' '
}

# series_list SRC REV: the patches of patches/series to apply to SRC at
# REV, in order.  A line "NAME  # needs: PATH" is left out, with a note on
# stderr, when REV has no file PATH, and "NAME  # needs: PATH: TEXT" when
# PATH does not hold TEXT (a patch for newer trees only: an interface the
# patch uses that older trees lack).
series_list() {
	local src=$1 rev=$2 name rest need path text
	while read -r name rest; do
		need=$(sed -n -e 's/.*#[[:space:]]*needs:[[:space:]]*//' -e 's/[[:space:]]*$//p' <<<"$rest")
		path=${need%%: *} text=""
		[ "$path" = "$need" ] || text=${need#*: }
		if [ -n "$path" ] && ! git -C "$src" cat-file -e "$rev:$path" 2>/dev/null; then
			echo "leaving out $name: it needs $path, which this tree does not have" >&2
			continue
		fi
		if [ -n "$text" ] && ! git -C "$src" grep -qF -e "$text" "$rev" -- "$path" 2>/dev/null; then
			echo "leaving out $name: it needs '$text' in $path, which this tree does not have" >&2
			continue
		fi
		echo "$name"
	done < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/patches/series")
}

# tree_path BASE: the kernel tree the rows of BASE build, which
# scripts/stages/tree.sh prepares: build/src/linux-BASE, made from Debian's
# tarball, or with KERNEL_SRC a git worktree of that repository under
# build/src (one per repository and base), so that the user's own
# checkout is never touched.  Fails if KERNEL_SRC is not a git repository.
tree_path() {
	local common
	if [ -z "${KERNEL_SRC:-}" ]; then
		echo "$BUILD/src/linux-$1"
		return
	fi
	common=$(git -C "$KERNEL_SRC" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
		return 1
	echo "$BUILD/src/kernel-src-$1-$(printf '%s' "$common" | sha1sum | cut -c1-8)"
}

# tree_note SRC NAME [VALUE]: what scripts/stages/tree.sh noted of its tree SRC:
# "stamp" (the series and the commit it was applied to), "base" (that
# commit) and "description" (the cover letter's subject and blurb).  Prints
# NAME, or sets it to VALUE ("" removes it).  The notes are files in the
# tree's own git folder (a worktree's is its own), never in a repository's
# config: a user's repository keeps its config as it was.
tree_note() {
	local f
	f=$(git -C "$1" rev-parse --path-format=absolute --git-path "ioremap-ram/$2") || return 1
	if [ $# -lt 3 ]; then
		cat "$f" 2>/dev/null
	elif [ -z "$3" ]; then
		rm -f "$f"
	else
		mkdir -p "${f%/*}"
		printf '%s\n' "$3" >"$f"
	fi
}

# tree_base SRC: the commit the series was applied to in SRC (tag "base"
# of a tree made from Debian's tarball, or what scripts/stages/tree.sh noted).
tree_base() {
	local rev
	rev=$(tree_note "$1" base) && [ -n "$rev" ] && { echo "$rev"; return; }
	git -C "$1" rev-parse -q --verify 'refs/tags/base^{commit}'
}

# scratch_worktree SRC [SUFFIX]: a git worktree of the kernel tree SRC in
# which the gates check out other commits than SRC's own (the base, a
# prefix of the series, the mboxes applied with git am), SRC itself
# untouched: BUILD/src/NAME-wt, NAME being SRC's folder; with SUFFIX
# another one, BUILD/src/NAME-SUFFIX-wt (the bisection's, which runs beside
# the compile coverage and the mbox test).  Prints its path.  Made once,
# with a detached HEAD and no file checked out, and kept from command to
# command: a checkout of a whole kernel tree costs about 33 s of CPU.  Made
# anew when it is not a worktree of SRC's repository (SRC made anew, the
# folder removed).  What a command stopped in it left is undone: git's
# index lock, a git am or cherry-pick in progress, the files it wrote that
# its index does not have.  Its HEAD, index and files are otherwise the
# last user's: a caller checks out the commit it needs with git checkout
# -f, and commits there on a detached HEAD only.  Only under the build
# lock (no other command can be using it), and by one gate at a time
# (scripts/gates/gates.sh runs the gates that share one in the same
# chain).  Fails, saying why on stderr, when it cannot be made.
scratch_worktree() {
	local src=${1%/} wt common left
	wt=$BUILD/src/${src##*/}${2:+-$2}-wt
	if [ "${BUILD_LOCKED:-}" != "$BUILD" ]; then
		echo "scratch_worktree: not under the lock of $BUILD (build_lock)" >&2
		return 1
	fi
	common=$(git -C "$src" rev-parse --path-format=absolute --git-common-dir) || return 1
	if [ "$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)" = "$common" ]; then
		left=$(scratch_leftovers "$wt")
		if [ -n "$left" ]; then
			echo "scratch_worktree: $wt: undoing what a stopped command left there:$left" >&2
			rm -f "$(git -C "$wt" rev-parse --path-format=absolute --git-path index.lock)"
			git -C "$wt" am --abort >/dev/null 2>&1 || git -C "$wt" am --quit >/dev/null 2>&1 || true
			git -C "$wt" cherry-pick --abort >/dev/null 2>&1 ||
				git -C "$wt" cherry-pick --quit >/dev/null 2>&1 || true
			git -C "$wt" clean -q -f -d -x >&2 || true
			left=$(scratch_leftovers "$wt")
		fi
		[ -n "$left" ] || { echo "$wt"; return; }
		echo "scratch_worktree: $wt: still there:$left; making it anew" >&2
	fi
	echo "scratch_worktree: making $wt, a git worktree of $src" >&2
	rm -rf "$wt"
	# -f: the path may be registered still (no prune: in a KERNEL_SRC
	# repository that would drop the user's own stale worktrees too).
	git -C "$src" worktree add -q -f --no-checkout --detach "$wt" HEAD >&2 || return 1
	echo "$wt"
}

# scratch_leftovers WT: what a command stopped in the worktree WT left
# there, as " NAME" each: git's index lock, an am (rebase-apply) or a
# cherry-pick (CHERRY_PICK_HEAD, sequencer) in progress.
scratch_leftovers() {
	local p
	for p in index.lock rebase-apply CHERRY_PICK_HEAD sequencer; do
		[ ! -e "$(git -C "$1" rev-parse --path-format=absolute --git-path "$p")" ] || printf ' %s' "$p"
	done
}

CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}
export CROSS_COMPILE ARCH=arm

# ccache for every compiler the builds call, the cross and the host one,
# unless CCACHE=0.  The cache lives outside the clone (ccache's own default,
# ~/.cache/ccache, or CCACHE_DIR), so a second run on the same machine, even
# from a fresh clone, is warm: paths below TOP are hashed relative to the
# build folder (CCACHE_BASEDIR), and depend mode takes the headers from the
# compiler's own -MMD output instead of running the preprocessor a second
# time on a miss.
# The cross compiler goes through scripts/stages/cc-ccache, which leaves assembler
# sources out of the cache: one may .incbin a file no dependency list names
# (arch/arm/boot/compressed/piggy.S takes the compressed kernel so), and
# ccache would hand back the zImage of an earlier build of the same config.
# The host compiler goes through Debian's masquerade links (/usr/lib/ccache).
if [ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null &&
   [ -x /usr/lib/ccache/gcc ]; then
	ccbin=$BUILD/ccache-bin
	# The compiler itself, found once, before the links come first on PATH.
	if [ -z "${CC_CCACHE_REAL:-}" ]; then
		CC_CCACHE_REAL=$(command -v "${CROSS_COMPILE}gcc" || true)
		export CC_CCACHE_REAL
	fi
	# A CROSS_COMPILE with a folder in it is called by its path: no cache.
	if [ "${CROSS_COMPILE#*/}" = "$CROSS_COMPILE" ] &&
	   [ ! -x "$ccbin/${CROSS_COMPILE}gcc" ]; then
		mkdir -p "$ccbin"
		ln -sfn "$TOP/scripts/stages/cc-ccache" "$ccbin/${CROSS_COMPILE}gcc.$$"
		mv -f "$ccbin/${CROSS_COMPILE}gcc.$$" "$ccbin/${CROSS_COMPILE}gcc"
	fi
	case :$PATH: in
	*:/usr/lib/ccache:*) ;;
	*) PATH=/usr/lib/ccache:$PATH ;;
	esac
	case :$PATH: in
	*:"$ccbin":*) ;;
	*) PATH=$ccbin:$PATH ;;
	esac
	CCACHE_BASEDIR=$TOP CCACHE_DEPEND=1
	export PATH CCACHE_BASEDIR CCACHE_DEPEND
fi

# Python: Debian's (scripts/stages/deps.sh installs it, with python3-yaml)
# comes first on PATH for python3 and "#!/usr/bin/env python3": the harness
# starts Python hundreds of times a make check, and a version manager's
# shim first on PATH (a shell script that looks the version up) costs
# about 0.37 s of CPU a start here, the interpreter itself 0.02 s.
pybin=$BUILD/python-bin
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	if [ ! -x "$pybin/python3" ]; then
		mkdir -p "$pybin"
		ln -sfn /usr/bin/python3 "$pybin/python3.$$"
		mv -f "$pybin/python3.$$" "$pybin/python3"
	fi
	case :$PATH: in
	*:"$pybin":*) ;;
	*) PATH=$pybin:$PATH ;;
	esac
	export PATH
fi

# wait_progress STAGE LOG PID: wait for PID, printing a line every 30 s
# with the elapsed time and the last line of LOG; returns PID's status.
wait_progress() {
	local stage=$1 log=$2 pid=$3 rc=0 n=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		if [ $((n % 30)) -eq 0 ]; then
			say "$stage" "... $(tail -n 1 "$log" | cut -c1-70)"
		fi
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# run_progress STAGE LOG CMD...: like run_logged, for long commands: prints a
# line every 30 s with the elapsed time and the last line of the log.
run_progress() {
	local stage=$1 log=$2 rc=0
	shift 2
	mkdir -p "$(dirname "$log")"
	"$@" >>"$log" 2>&1 &
	wait_progress "$stage" "$log" $! || rc=$?
	[ "$rc" -eq 0 ] || die "$stage" "$log" "$* (exit $rc)"
}

# pkgs_missing PKG...: those of the Debian packages PKG... not installed
pkgs_missing() {
	local p
	for p in "$@"; do
		grep -q "ok installed" <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || echo "$p"
	done
}

# pkgs_sudo: the prefix of a command that needs root: "sudo" when not
# root; fails, with the reason in pkgs_why, when there is no sudo.
pkgs_sudo() {
	[ "$(id -u)" -ne 0 ] || return 0
	command -v sudo >/dev/null || { pkgs_why="not root and no sudo"; return 1; }
	echo sudo
}

# pkgs_update STAGE LOG: apt-get update, once a command (pkgs_updated).  A
# mirror in the middle of a sync fails one index (apt-get update exits 100)
# while the others are fine: the update runs a second time, then what
# follows uses the indexes it got.
pkgs_update() {
	local stage=$1 log=$2 sudo
	[ -z "${pkgs_updated:-}" ] || return 0
	sudo=$(pkgs_sudo) || return 1
	mkdir -p "$(dirname "$log")"
	if ! $sudo apt-get update >>"$log" 2>&1 && ! $sudo apt-get update >>"$log" 2>&1; then
		say "$stage" "apt-get update reported errors ($(grep -m1 '^E: ' "$log" | cut -c1-100)); going on with the indexes it got"
	fi
	pkgs_updated=1
}

# pkgs_install STAGE LOG [APT-GET OPTION...] -- PKG...: the one installer
# of Debian packages (scripts/stages/deps.sh, the LAVA scripts): pkgs_update,
# then apt-get install OPTIONS PKG..., as root or with sudo, its output to
# LOG and a progress line every 30 s.  Returns 1, with the reason in
# pkgs_why, when the packages cannot be installed.  Call it directly, not
# in $(...): the update is done once a command only if pkgs_updated
# survives the call.
pkgs_install() {
	local stage=$1 log=$2 sudo opts=() rc=0
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	[ $# -gt 0 ] || return 0
	sudo=$(pkgs_sudo) || { pkgs_why="$pkgs_why to install $*"; return 1; }
	pkgs_update "$stage" "$log"
	# An install that was stopped (Ctrl-C) leaves dpkg's work half done,
	# and apt-get refuses to go on until it is finished.
	if [ -n "$($sudo dpkg --audit 2>/dev/null)" ]; then
		say "$stage" "finishing an install that was stopped (dpkg --configure -a)"
		$sudo env DEBIAN_FRONTEND=noninteractive dpkg --configure -a >>"$log" 2>&1 || true
	fi
	say "$stage" "installing: $*"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${opts[@]}" "$@" >>"$log" 2>&1 &
	wait_progress "$stage" "$log" $! || rc=$?
	[ "$rc" -eq 0 ] || { pkgs_why="apt-get install $* failed (exit $rc): $(tail -n 1 "$log") (log: $log)"; return 1; }
}

# A package the machine's own apt sources do not have (a base's
# linux-source-BASE of a newer kernel) comes from the first of these
# Debian suites that has it, from this archive, whose Release files are
# signed with a key of this keyring (pkgs_fetch).  Only that package is
# taken from the suite.
pkgs_suites=(bookworm-backports trixie trixie-backports unstable experimental)
pkgs_mirror=http://deb.debian.org/debian
pkgs_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# pkgs_machine_suites: the suites of the machine's own apt sources, in
# their order, one a line.
pkgs_machine_suites() {
	# shellcheck disable=SC2016 # $(RELEASE): apt's, not the shell's
	apt-get indextargets --no-release-info --format '$(RELEASE)' 'Identifier: Packages' 2>/dev/null |
		awk 'NF && !seen[$0]++'
}

# pkgs_unindexed: the suites of the machine's own apt sources that have no
# Packages index on this machine (never fetched), one a line.  (A suite
# has a file for some of its targets only: none for binary-all, which
# Debian's suites fold into each architecture's index.)
pkgs_unindexed() {
	local suite file
	local -A known=() have=()
	while read -r suite file; do
		known[$suite]=1
		! compgen -G "$file*" >/dev/null || have[$suite]=1
	done < <(
		# shellcheck disable=SC2016
		apt-get indextargets --no-release-info --format '$(RELEASE) $(FILENAME)' 'Identifier: Packages' 2>/dev/null
	)
	for suite in "${!known[@]}"; do
		[ -n "${have[$suite]:-}" ] || echo "$suite"
	done
}

# pkgs_candidate PKG [APT-OPTION...]: the version of PKG the machine's own
# apt sources offer (apt-cache policy's candidate, from their indexes as
# they are), or those APT-OPTIONs name (-c CONFIG: pkgs_fetch's suite);
# nothing when they have none.
pkgs_candidate() {
	local c pkg=$1
	shift
	c=$(apt-cache "$@" policy "$pkg" 2>/dev/null | sed -n 's/^  Candidate: //p')
	[ "$c" = "(none)" ] || printf '%s' "$c"
}

# pkgs_fetch STAGE LOG PKG: download PKG's .deb from the first suite of
# pkgs_suites that has it (a suite of the machine's own sources is left
# out: pkgs_candidate asks those), its newest version there.  Each suite is
# asked with apt on state of its own, $BUILD/apt/SUITE/: a config read
# after the machine's (its proxy and other Acquire settings hold) that
# names this suite as the only source, with Signed-By pkgs_keyring, no
# preferences, an empty dpkg status, its own indexes and cache, and no
# update hooks; only main's Packages index of the host's architecture is
# fetched, and kept for the next run.  Nothing of the machine's apt (its
# sources, pins, indexes, installed packages) is read or written, so the
# machine's choice of its other packages stays as it was, and nothing but
# the file comes from the suite.  The suites after the one that has PKG are
# not asked.  Sets pkgs_deb (the file, in $BUILD/apt/debs), pkgs_suite and
# pkgs_version; returns 1, with the reason in pkgs_why, when no suite has
# PKG (naming every suite it looked in) or a suite could not be read.
pkgs_fetch() {
	local stage=$1 log=$2 pkg=$3 arch suite d own=() looked="" ver size rc=0
	local debs=$BUILD/apt/debs
	arch=$(dpkg --print-architecture)
	mapfile -t own < <(pkgs_machine_suites)
	for suite in "${own[@]}"; do
		looked+="${looked:+, }$suite"
	done
	looked="the machine's sources (${looked:-none})"
	mkdir -p "$(dirname "$log")"
	for suite in "${pkgs_suites[@]}"; do
		[[ " ${own[*]} " != *" $suite "* ]] || continue
		looked+=", $suite"
		d=$BUILD/apt/$suite
		mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/parts"
		: >"$d/status"
		printf '%s\n' "Types: deb" "URIs: $pkgs_mirror" "Suites: $suite" "Components: main" \
			"Architectures: $arch" "Targets: Packages" "Signed-By: $pkgs_keyring" >"$d/debian.sources"
		printf '%s\n' \
			"Dir::Etc::SourceList \"$d/debian.sources\";" "Dir::Etc::SourceParts \"$d/parts\";" \
			"Dir::Etc::Preferences \"$d/preferences\";" "Dir::Etc::PreferencesParts \"$d/parts\";" \
			"Dir::State::Lists \"$d/lists\";" "Dir::State::status \"$d/status\";" \
			"Dir::State::extended_states \"$d/extended_states\";" \
			"Dir::Cache \"$d/cache\";" 'Dir::Cache::pkgcache "";' 'Dir::Cache::srcpkgcache "";' \
			'Acquire::Languages "none";' '#clear APT::Update::Pre-Invoke;' \
			'#clear APT::Update::Post-Invoke;' '#clear APT::Update::Post-Invoke-Success;' >"$d/apt.conf"
		say "$stage" "looking for $pkg in Debian $suite ($pkgs_mirror)"
		# (A mirror in the middle of a sync: a second time, as pkgs_update.)
		if ! waited apt-get -c "$d/apt.conf" update >>"$log" 2>&1 &&
		   ! waited apt-get -c "$d/apt.conf" update >>"$log" 2>&1; then
			pkgs_why="apt-get update of Debian $suite ($pkgs_mirror) failed: $({ grep '^E: ' "$log" || true; } | tail -n 1 | cut -c1-150) (log: $log)"
			return 1
		fi
		ver=$(pkgs_candidate "$pkg" -c "$d/apt.conf")
		[ -n "$ver" ] || continue
		size=$(apt-cache -c "$d/apt.conf" show "$pkg=$ver" 2>/dev/null | sed -n '1,/^$/s/^Size: //p')
		say "$stage" "$pkg $ver: from Debian $suite, downloading ($((${size:-0} / 1000000)) MB)"
		mkdir -p "$debs"
		rm -f "$debs/${pkg}_"*
		(cd "$debs" && apt-get -c "$d/apt.conf" download "$pkg=$ver") >>"$log" 2>&1 &
		wait_progress "$stage" "$log" $! || rc=$?
		pkgs_deb=$(find "$debs" -maxdepth 1 -name "${pkg}_*.deb" -print -quit)
		if [ "$rc" -ne 0 ] || [ -z "$pkgs_deb" ]; then
			pkgs_why="apt-get download $pkg=$ver from Debian $suite failed (exit $rc) (log: $log)"
			return 1
		fi
		# shellcheck disable=SC2034 # for the caller
		pkgs_suite=$suite pkgs_version=$ver
		return 0
	done
	pkgs_why="no Debian suite has $pkg (looked in: $looked)"
	return 1
}

# pkgs_install_deb STAGE LOG DEB: install the package file DEB with apt-get
# (pkgs_install), never removing a package; a dependency that is not
# installed comes from the machine's own sources, whose indexes are then
# updated first (pkgs_update).  With every dependency installed, nothing
# but DEB is installed and nothing is fetched.  Returns 1, with the reason
# in pkgs_why (the dependency apt could not satisfy, if that is why).
pkgs_install_deb() {
	local stage=$1 log=$2 deb sim dep
	deb=$(realpath "$3")
	sim=$(apt-get install -s --no-install-recommends --no-remove "$deb" 2>&1) || sim=""
	if [ "$(grep -c '^Inst ' <<<"$sim")" -eq 1 ]; then
		# shellcheck disable=SC2034 # read by pkgs_update, under pkgs_install
		local pkgs_updated=1
	fi
	pkgs_install "$stage" "$log" --no-install-recommends --no-remove -- "$deb" && return 0
	dep=$(grep -m1 -E ' : (Pre-)?Depends: ' "$log" | sed 's/^ *//') || true
	pkgs_why="${dep:+$dep: }$pkgs_why"
	return 1
}

# fragments_not_taken CONFIG FRAGMENT...: print the fragments' CONFIG_ lines
# that CONFIG does not have (merge_config.sh only warns about them).  A later
# fragment overrides an earlier one, as in merge_config.sh; "=n" means absent.
fragments_not_taken() {
	local config=$1 line sym
	shift
	local -A want=()
	while IFS= read -r line; do
		case $line in CONFIG_*=*) want[${line%%=*}]=$line ;; esac
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$@")
	for sym in "${!want[@]}"; do
		line=${want[$sym]}
		case $line in
		*=n) if grep -q "^$sym=" "$config"; then printf '%s ' "$line"; fi ;;
		*) grep -qxF "$line" "$config" || printf '%s ' "$line" ;;
		esac
	done
}

# record STATUS CHECK [DETAIL]: one result (PASS, FAIL or SKIP) in $tsv, the
# results.tsv of the running stage, which scripts/check.sh sums up
# shellcheck disable=SC2154 # tsv is the sourcing stage's
record() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$tsv"; }

# report LABEL: print the results of $tsv, a line each; fails if one failed
report() {
	local status check detail
	while IFS=$'\t' read -r status check detail; do
		printf '  %-4s %-12s %s%s\n' "$status" "$1" "$check" "${detail:+  ($detail)}"
	done <"$tsv"
	! grep -q '^FAIL' "$tsv"
}

# checkpatch SRC DIR PATCH: SRC's (an absolute path) checkpatch.pl --strict on DIR/PATCH, run
# from DIR, which must be outside any git checkout's tracked files (given a
# path git tracks, checkpatch checks the file itself, not the patch in it);
# prints its terse report, or nothing when clean.  UNKNOWN_COMMIT_ID is left
# to lint's "fixes" check (configs/fixes.tsv): checkpatch looks a Fixes: id
# up with git log, and Debian's tarball has no history.  FILE_PATH_CHANGES
# is asked of every patch that adds a file without touching MAINTAINERS,
# even when a pattern of the entry covers it; lint's "maintainers" check
# asks get_maintainer.pl instead.  Used by scripts/gates/lint.sh and the mbox test.
checkpatch() {
	(cd "$2" && perl "$1/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$3" 2>&1) || true
}

# kunit_dir: the folder of the kernel's KTAP parser (kunit_parser.py), which
# scripts/stages/judge.py uses: tools/testing/kunit of the 6.12 tree if it has
# been laid out, else unpacked from Debian's linux-source-6.12 on its own.
kunit_dir() {
	local tree=$BUILD/src/linux-6.12/tools/testing/kunit cache=$BUILD/cache/kunit
	local tarball=/usr/src/linux-source-6.12.tar.xz
	if [ -f "$tree/kunit_parser.py" ]; then
		echo "$tree"
		return
	fi
	# One unpacking at a time: two guests' judges may get here at once.
	mkdir -p "$BUILD/cache"
	(
		flock 7
		if [ ! -f "$cache/tools/testing/kunit/kunit_parser.py" ]; then
			[ -f "$tarball" ] || die judge "" "$tarball missing (run scripts/stages/deps.sh)"
			rm -rf "$cache"
			mkdir -p "$cache"
			tar -C "$cache" -xJf "$tarball" --strip-components=1 --wildcards '*/tools/testing/kunit/*' ||
				die judge "" "no tools/testing/kunit in $tarball"
		fi
	) 7>"$BUILD/cache/.kunit.lock" || exit 1
	echo "$cache/tools/testing/kunit"
}

# timed STAGE NAME CMD...: run CMD and add its wall time and CPU time to
# $BUILD/times.tsv ("STAGE<TAB>NAME<TAB>SECONDS<TAB>CPU-SECONDS<TAB>START"),
# which scripts/check.sh sums up per stage.  CPU: user + system of CMD and
# every process under it that was waited for (a subshell's children's
# times); START: seconds since T0.  Returns CMD's exit status.
timed() {
	local stage=$1 name=$2 start rc=0 cpu
	shift 2
	start=$(date +%s)
	mkdir -p "$BUILD"
	cpu=$(mktemp "$BUILD/.timed.XXXXXX")
	(
		s=0
		"$@" || s=$?
		times >"$cpu"
		exit "$s"
	) || rc=$?
	printf '%s\t%s\t%s\t%s\t%s\n' "$stage" "$name" $(($(date +%s) - start)) \
		"$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] }
			printf "%d", n + 0.5 }' "$cpu")" $((start - T0)) >>"$BUILD/times.tsv"
	rm -f "$cpu"
	return "$rc"
}

# The QEMU machine (configs/qemu.env): QEMU_MACHINE, QEMU_CPU, QEMU_MEMORY.
# shellcheck source=configs/qemu.env
. "$TOP/configs/qemu.env"

# lava_no_job ROW: why ROW has no LAVA job, on stdout (a row booted with a
# device-tree fragment, "-dtb": a LAVA device boots its own DTB; a row of
# kind "edge": it boots twice; of kind "panic": it ends in a panic, which
# a LAVA job reports as its failure); status 1 and nothing printed when it
# has one.  Read by lava/jobs.sh, lava/run.sh and check.sh.
lava_no_job() {
	local dt kind
	# shellcheck source=/dev/null disable=SC2153 # KIND: the row's record
	read -r kind dt < <(. "$(row_record "$1")" && echo "$KIND $DT_FRAGMENT") || return 1
	if [ "$kind" = edge ]; then
		echo "it boots its kernel twice, the first time without the pool, which one LAVA job does not"
	elif [ "$kind" = panic ]; then
		echo "it ends in the panic it expects, which a LAVA job reports as its own failure"
	elif [ -n "$dt" ]; then
		echo "its device tree is QEMU's with ${dt##*/configs/} added, which a LAVA device's own DTB does not have"
	else
		return 1
	fi
}

# row_record ROW: resolve ROW of configs/matrix.tsv, once, into its record
# $BUILD/rows/ROW.env and print the record's path: shell assignments that
# every stage sources instead of reading matrix columns (scripts/harness.py
# record writes it, with configs/qemu.env's machine: ROW BASE KIND
# FRAGMENTS KEY OUT RES POLICY EXPECT TESTS PARAMS GUEST_ENV CMDLINE
# MEMORY QEMU_EXTRA QEMU_OPTS DT_FRAGMENT; see row_record() there).
row_record() {
	local out
	out=$(harness record --top "$TOP" --build "$BUILD" --machine "$QEMU_MACHINE" \
		--cpu "$QEMU_CPU" --memory "$QEMU_MEMORY" "$1" 2>&1) || die row "" "${out#harness.py record: }"
	echo "$out"
}

# summary NAME...: each row's or gate's counts (build/results/NAME/
# results.tsv; none is a failure), its FAILs with their reasons, and the
# total line "N passed, N failed, N skipped", also in $BUILD/summary.txt
# (its last line).  Returns 1 if a check failed.
summary() {
	local name tsv p f s pass=0 fail=0 skip=0
	for name in "$@"; do
		tsv=$BUILD/results/$name/results.tsv
		if [ ! -s "$tsv" ]; then
			mkdir -p "${tsv%/*}"
			printf 'FAIL\t%s\tno results\n' "$name" >"$tsv"
		fi
		p=$(grep -c '^PASS' "$tsv" || true)
		f=$(grep -c '^FAIL' "$tsv" || true)
		s=$(grep -c '^SKIP' "$tsv" || true)
		printf '  %-28s %3d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
		{ grep '^FAIL' "$tsv" || true; } | while IFS=$'\t' read -r _ check detail; do
			printf '      FAIL %s: %s\n' "$check" "$detail"
		done
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	done
	echo "$pass passed, $fail failed, $skip skipped" >"$BUILD/summary.txt"
	[ "$fail" -eq 0 ]
}
