# tools.awk — the external commands a set of test files runs, one
# "COMMAND<TAB>FILE" line each (first file that runs it), for tests/deps.sh.
#
#   awk -f tests/tools.awk FILE...
#
# Shell scripts (*.sh) are read by a small shell lexer: a command is the
# first word of a simple command, after assignments, redirections and the
# keywords (if, then, do, !, ...); also the command behind env, timeout,
# exec, nice, xargs and sudo, the code of sh -c and trap, the commands in
# $(...) and `...`, a variable run as a command (chk="python3 x.py"; $chk),
# and the command handed to a "runner" function (one that shifts N and runs
# "$@": check python3 ..., run NAME sh -c ...). Heredoc bodies, case
# patterns, `command -v` probes and words with a '/' or '$' are not tools,
# nor the functions a script defines or gets from a file it sources
# (". DIR/x.sh" reads x.sh beside the script).
# Makefile recipes (TAB lines) and $(shell ...) are lexed the same way,
# make variables being unknown words. Python: the program of subprocess.*(['prog', ...]).
# C tests that call system() or popen(): every string literal that reads
# like a command line (a command word, then an option, a pipe, &&, ; or a
# redirection). Shell builtins and the file's own functions are left out.

BEGIN {
	nk = split("if then else elif fi do done case esac while until for in ! { } time", a, " ")
	for (k = 1; k <= nk; k++) keyword[a[k]] = 1
	nb = split(": . [ alias bg break cd command continue echo eval exec exit export false fc fg " \
		   "getopts hash jobs kill local printf pwd read readonly return set shift test times " \
		   "trap true type ulimit umask unalias unset wait", a, " ")
	for (k = 1; k <= nb; k++) builtin[a[k]] = 1
	TOOL = "^[A-Za-z0-9_][A-Za-z0-9._+-]*$"
	NAME = "^[A-Za-z_][A-Za-z0-9_]*$"
}

FNR == 1 && NR > 1 { scan(prev, text); text = "" }
{ text = text $0 "\n"; prev = FILENAME }
END { if (NR > 0) scan(prev, text) }

function scan(file, s,    n) {
	cur_file = file
	split("", func_); split("", runner); split("", shifts); split("", var)
	cur_func = ""; depth = 0; func_depth = -1; casepat = 0
	n = file; sub(/.*\//, "", n)
	if (n ~ /\.py$/) scan_py(s)
	else if (n ~ /\.c$/) scan_c(s)
	else if (n ~ /^(GNU)?[Mm]akefile$|\.mk$/) scan_make(s)
	else { find_funcs(s); lex(s) }
}

function emit(t) {
	if (t in builtin || t in keyword || t in func_ || t in seen) return
	seen[t] = 1
	printf "%s\t%s\n", t, cur_file
}

# Function names are known before use: name() at the start of a line,
# in the file or in a file it sources (". DIR/x.sh": x.sh beside it).
function find_funcs(s,    n, i, l, a, p, d, x) {
	n = split(s, a, "\n")
	for (i = 1; i <= n; i++) {
		l = a[i]
		sub(/^[ \t]*/, "", l)
		if (match(l, /^(\.|source)[ \t]+/)) {
			p = substr(l, RLENGTH + 1)
			gsub(/["']/, "", p)
			sub(/[ \t;].*/, "", p)
			sub(/.*\//, "", p)
			d = cur_file
			if (d ~ /\//) sub(/\/[^\/]*$/, "/", d); else d = ""
			while ((getline x < (d p)) > 0)
				func_name(x)
			close(d p)
		}
		func_name(l)
	}
}

function func_name(l) {
	sub(/^[ \t]*/, "", l)
	if (match(l, /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(\)/)) {
		l = substr(l, 1, RLENGTH)
		sub(/[ \t]*\(\)$/, "", l)
		func_[l] = 1
	}
}

# ---- the shell lexer ------------------------------------------------------

# Index of the ')' that closes the '(' just before i, quotes skipped.
function close_paren(s, i,    d, c, n, j) {
	n = length(s); d = 1
	for (; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\") i++
		else if (c == "'") { j = index(substr(s, i + 1), "'"); if (!j) return n; i += j }
		else if (c == "\"") i = close_dq(s, i + 1)
		else if (c == "(") d++
		else if (c == ")" && --d == 0) return i
	}
	return n
}

# Index of the '"' that closes a double-quoted string starting at i.
function close_dq(s, i,    c, n) {
	n = length(s)
	for (; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\") i++
		else if (c == "\"") return i
		else if (c == "$" && substr(s, i + 1, 1) == "(") i = close_paren(s, i + 2)
	}
	return n
}

function close_brace(s, i,    d, c, n) {
	n = length(s); d = 1
	for (; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\") i++
		else if (c == "{") d++
		else if (c == "}" && --d == 0) return i
	}
	return n
}

# A '$' at i: expansion; command substitutions are lexed. Returns the
# index of its last character.
function dollar(s, i,    j) {
	if (substr(s, i + 1, 2) == "((") return close_paren(s, close_paren(s, i + 3) + 1) # $((...))
	if (substr(s, i + 1, 1) == "(") { j = close_paren(s, i + 2); lex(substr(s, i + 2, j - i - 2)); return j }
	if (substr(s, i + 1, 1) == "{") return close_brace(s, i + 2)
	if (match(substr(s, i + 1), /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/)) return i + RLENGTH
	return i
}

# Reads the word at i into W (quotes removed, expansions kept as text) and
# W_plain (no expansion in it); returns the index after it. W and W_plain
# are set last: the substitutions lexed on the way use them too.
function word(s, i,    n, c, j, w, plain) {
	n = length(s); w = ""; plain = 1
	for (; i <= n; i++) {
		c = substr(s, i, 1)
		if (c ~ /[ \t\n;&|()<>]/) break
		if (c == "\\") { if (substr(s, i + 1, 1) != "\n") w = w substr(s, i + 1, 1); i++ }
		else if (c == "'") { j = index(substr(s, i + 1), "'"); if (!j) j = n - i + 1; w = w substr(s, i + 1, j - 1); i += j }
		else if (c == "\"") {
			j = close_dq(s, i + 1)
			w = w dq(substr(s, i + 1, j - i - 1)); if (!DQ_PLAIN) plain = 0
			i = j
		} else if (c == "`") {
			j = index(substr(s, i + 1), "`"); if (!j) j = n - i + 1
			lex(substr(s, i + 1, j - 1)); plain = 0; w = w "`"; i += j
		} else if (c == "$") { j = dollar(s, i); w = w substr(s, i, j - i + 1); if (j > i) plain = 0; i = j }
		else w = w c
	}
	W = w; W_plain = plain
	return i
}

# The inside of a double-quoted string, escapes removed; DQ_PLAIN says
# whether it has no expansion.
function dq(t,    i, n, c, j, w, plain) {
	n = length(t); w = ""; plain = 1
	for (i = 1; i <= n; i++) {
		c = substr(t, i, 1)
		if (c == "\\" && substr(t, i + 1, 1) ~ /[$`"\\\n]/) { w = w substr(t, i + 1, 1); i++ }
		else if (c == "$") { j = dollar(t, i); w = w substr(t, i, j - i + 1); if (j > i) plain = 0; i = j }
		else if (c == "`") { j = index(substr(t, i + 1), "`"); if (!j) j = n - i + 1; lex(substr(t, i + 1, j - 1)); plain = 0; i += j }
		else w = w c
	}
	DQ_PLAIN = plain
	return w
}

# Lexes shell code s, emitting the commands it runs.
function lex(s,    n, i, c, c2, at, mode, skip, argi, w, plain, heredocs, nh, h, j, line, eol, delim, strip, v, k) {
	n = length(s); i = 1; at = 1; mode = ""; nh = 0
	while (i <= n) {
		c = substr(s, i, 1); c2 = substr(s, i, 2)
		if (c == " " || c == "\t") { i++; continue }
		if (c2 == "\\\n") { i += 2; continue }
		if (c == "\n") {
			i++
			for (h = 1; h <= nh; h++) { # skip heredoc bodies
				delim = heredocs[h]; strip = substr(delim, 1, 1) == "-"; if (strip) delim = substr(delim, 2)
				while (i <= n) {
					eol = index(substr(s, i), "\n"); if (!eol) eol = n - i + 2
					line = substr(s, i, eol - 1); i += eol
					if (strip) sub(/^\t*/, "", line)
					if (line == delim) break
				}
			}
			nh = 0
			if (!casepat) { at = 1; mode = "" }
			continue
		}
		if (c == "#") { j = index(substr(s, i), "\n"); i = j ? i + j - 1 : n + 1; continue }
		if (c2 == ";;") { casepat = 1; at = 0; mode = ""; i += 2; continue }
		if (c2 == "&&" || c2 == "||") { at = 1; mode = ""; i += 2; continue }
		if (c == ";" || c == "&" || c == "|") { at = 1; mode = ""; i++; continue }
		if (c == "(") { at = 1; mode = ""; i++; continue }
		if (c == ")") { if (casepat) casepat = 0; at = 1; mode = ""; i++; continue }
		if (c == "<" || c == ">") { # redirection: the operator and its target
			if (c2 == "<<") {
				i += 2; if (substr(s, i, 1) == "-") { i++; strip = "-" } else strip = ""
				while (substr(s, i, 1) ~ /[ \t]/) i++
				i = word(s, i); heredocs[++nh] = strip W
				continue
			}
			while (substr(s, i, 1) ~ /[<>&|]/) i++
			while (substr(s, i, 1) ~ /[ \t]/) i++
			i = word(s, i)
			continue
		}
		i = word(s, i); w = W; plain = W_plain
		if (casepat) { if (w == "esac") { casepat = 0; at = 0 } continue }
		if (w ~ /^[0-9]+$/ && substr(s, i, 1) ~ /[<>]/) continue # 2>file
		if (at) {
			if (plain && w in keyword) {
				if (w == "case") { at = 0; mode = "case" }
				else if (w == "for") { at = 0; mode = "" }
				else if (w == "{") { depth++ }
				else if (w == "}") { if (--depth == func_depth) { cur_func = ""; func_depth = -1 } at = 0 }
				else if (w ~ /^(fi|done|esac)$/) at = 0
				continue
			}
			if (w ~ /^[A-Za-z_][A-Za-z0-9_]*=/) { # assignment: remembered for $var commands
				v = w; sub(/=.*/, "", v); k = w; sub(/^[^=]*=/, "", k)
				var[v] = (v in var) ? var[v] "\n" k : k
				continue
			}
			if (match(substr(s, i), /^[ \t]*\(\)/)) { # name() — a function
				i += RLENGTH; cur_func = w; func_depth = depth; at = 1; continue
			}
			at = 0; argi = 0; mode = command(w, plain); skip = CMD_SKIP
			continue
		}
		# an argument of the current command
		argi++
		if (mode == "case" && w == "in") { casepat = 1; mode = ""; continue }
		if (mode == "prefix") { # env, timeout, ...: options, assignments, N fixed arguments
			if (w ~ /^-/ || w ~ /^[A-Za-z_][A-Za-z0-9_]*=/) continue
			if (skip-- > 0) continue
			argi = 0; mode = command(w, plain); skip = CMD_SKIP; continue
		}
		if (mode == "runner") { if (argi == skip + 1) { argi = 0; mode = command(w, plain); skip = CMD_SKIP } continue }
		if (mode == "sh") { if (w == "-c") mode = "code"; continue }
		if (mode == "code" || mode == "trap" || mode == "eval") { if (mode != "eval") mode = ""; lex(w); continue }
		if (mode == "command") { if (w ~ /^-[vV]/) mode = "probe"; else { argi = 0; mode = command(w, plain); skip = CMD_SKIP } continue }
		if (mode == "shift" && cur_func != "") { shifts[cur_func] += w - 1; mode = ""; continue }
	}
}

# The command word w of a simple command: emits it when it is a tool, and
# returns how the lexer reads its arguments (CMD_SKIP: how many to pass).
function command(w, plain,    k, vals, nv) {
	CMD_SKIP = 0
	if (w == "$@" || w == "$*") { if (cur_func != "") runner[cur_func] = shifts[cur_func] + 0; return "" }
	if (w ~ /^\$[A-Za-z_][A-Za-z0-9_]*$/ || w ~ /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/) {
		k = w; gsub(/[${}]/, "", k)
		if (k in var && !(k in expanding)) { # x="$x y" must not loop
			expanding[k] = 1
			nv = split(var[k], vals, "\n"); for (; nv > 0; nv--) lex(vals[nv])
			delete expanding[k]
		}
		return ""
	}
	if (!plain || w !~ TOOL) return ""
	if (w in func_) { if (w in runner) { CMD_SKIP = runner[w]; return "runner" } return "" }
	if (w == "shift") { if (cur_func != "") shifts[cur_func]++; return "shift" }
	if (w == "command") return "command"
	if (w == "exec") return "prefix"
	if (w == "trap" || w == "eval") return w
	if (w in builtin) return ""
	emit(w)
	if (w == "env" || w == "nice" || w == "xargs" || w == "sudo") return "prefix"
	if (w == "timeout") { CMD_SKIP = 1; return "prefix" }
	if (w ~ /^(sh|bash|dash)$/) return "sh"
	return ""
}

# ---- other kinds of files ---------------------------------------------------

# Recipe lines (after a TAB), continuations joined, and what $(shell ...)
# runs anywhere in the file.
function scan_make(s,    n, a, i, l, j) {
	gsub(/\\\n/, " ", s)
	n = split(s, a, "\n")
	for (i = 1; i <= n; i++) {
		l = a[i]
		while ((j = index(l, "$(shell ")) > 0) {
			l = substr(l, j + 8)
			lex(make_text(substr(l, 1, close_paren(l, 1) - 1)))
		}
		if (substr(a[i], 1, 1) != "\t") continue
		l = substr(a[i], 2); sub(/^[ \t@+-]*/, "", l)
		lex(make_text(l))
	}
}

# Make text as the shell sees it: make's own $(...), ${...} and $X become
# an unknown shell variable, $$ a '$'.
function make_text(l,    out, j, r) {
	gsub(/\$\$/, "\001", l)
	out = ""
	while ((j = index(l, "$")) > 0) {
		out = out substr(l, 1, j - 1) "$MAKEVAR"
		r = substr(l, j + 1, 1)
		if (r == "(") l = substr(l, close_paren(l, j + 2) + 1)
		else if (r == "{") l = substr(l, close_brace(l, j + 2) + 1)
		else l = substr(l, j + 2)
	}
	l = out l
	gsub(/\001/, "$", l)
	return l
}

function scan_py(s,    t, w) {
	t = s
	while (match(t, /subprocess\.[a-z_]+\([ \t\n]*\[?[ \t\n]*["'][^"']+/)) {
		w = substr(t, RSTART, RLENGTH); sub(/.*["']/, "", w); sub(/[ \t].*/, "", w)
		if (w ~ TOOL) emit(w)
		t = substr(t, RSTART + RLENGTH)
	}
}

# String literals (adjacent ones joined) of a C file that runs commands.
function scan_c(s,    n, i, c, lit, have, j) {
	if (s !~ /(system|popen)[ \t]*\(/) return
	n = length(s); lit = ""; have = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (substr(s, i, 2) == "/*") { j = index(substr(s, i + 2), "*/"); i = j ? i + j + 2 : n; continue }
		if (substr(s, i, 2) == "//") { j = index(substr(s, i), "\n"); i = j ? i + j - 1 : n; continue }
		if (c == "'") { i += (substr(s, i + 1, 1) == "\\") ? 3 : 2; continue }
		if (c == "\"") {
			for (i++; i <= n && (c = substr(s, i, 1)) != "\""; i++) {
				if (c == "\\") { i++; c = substr(s, i, 1); c = c == "n" ? "\n" : c == "t" ? "\t" : c == "\\" || c == "\"" || c == "'" ? c : "\\" c }
				lit = lit c
			}
			have = 1
			continue
		}
		if (c ~ /[ \t\n]/) continue
		if (have && cmdline(lit)) lex(lit)
		lit = ""; have = 0
	}
}

function cmdline(t,    w) {
	w = t; sub(/^[ \t]*/, "", w); sub(/[ \t].*/, "", w)
	if (w !~ TOOL && w != "for") return 0
	return t ~ / -[A-Za-z]/ || t ~ /&&|\|\||\| |; |[0-9]?>/
}
