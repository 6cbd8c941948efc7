"""A seeded generator of bash scripts over the constructs agents write.

`generate(rng)` returns a list of `(kind, text)` statements; joined by
newlines they make a script. Every loop is bounded and nothing depends on the
host (no clocks, no $RANDOM, no process ids, no job ordering), so bash and the
sandbox must agree byte for byte.
"""

from .words import (ARRAYS, ASSOCS, FILES, FORMATS, NUMBERS, PATTERNS, SCALARS, SOURCES,
                    FILTERS, VALUES, WORDS)


def shell_quote(text):
    """Quotes text for bash in the most natural of three ways."""
    if text and all(c.isalnum() or c in "._-/=:," for c in text):
        return text
    if "'" not in text and "\n" not in text and "\t" not in text:
        return "'" + text + "'"
    return "$'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t") + "'"


class Grammar:
    """Generates statements; `depth` keeps nesting bounded."""

    def __init__(self, rng):
        self.rng = rng
        self.depth = 0

    def pick(self, items):
        return self.rng.choice(items)

    def chance(self, p):
        return self.rng.random() < p

    # ---- words and expansions -------------------------------------------------

    def value(self):
        return shell_quote(self.pick(VALUES))

    def param(self):
        """A parameter expansion of a scalar or array, with an operator."""
        name = self.pick(SCALARS + ["unset_var", "1", "#", "@", "*"])
        r = self.rng.random()
        if r < 0.25:
            return "$" + name if name not in ("#", "@", "*") or self.chance(0.5) else "${" + name + "}"
        ops = [
            ":-dflt", "-dflt", ":=set", "+alt", ":+alt", ":?msg", "#*a", "##*/", "%.*", "%%/*", "/o/0",
            "//o/0", "/#h/H", "/%d/D", "^", "^^", ",", ",,", ":1", ":1:2", ": -2", ":0:-1", "@Q", "@U",
            "@L", "@A", "/[ab]/_", "//\\*/star", ":${#s}",
        ]
        if name in ("#", "@", "*"):
            return self.pick(["$#", "$@", "$*", "${#}", "${@:2}", "${*:1:1}", "${#@}"])
        if self.chance(0.2):
            return "${#" + name + "}"
        if self.chance(0.1):
            return "${!" + self.pick(["ref", "x", "unset_var"]) + "}"
        return "${" + name + self.pick(ops) + "}"

    def array_ref(self):
        a = self.pick(ARRAYS + ASSOCS)
        return self.pick([
            "${%s[@]}" % a, "${%s[*]}" % a, "${#%s[@]}" % a, "${!%s[@]}" % a, "${%s[1]}" % a,
            "${%s[-1]}" % a, "${%s[@]:1}" % a, "${%s[@]/a/X}" % a, "${%s[k]}" % a, "${%s}" % a,
            "${#%s[0]}" % a, '"${%s[@]}"' % a, "${%s[@]^^}" % a, "${%s[@]@Q}" % a,
        ])

    def word(self):
        r = self.rng.random()
        if r < 0.3:
            return '"' + self.param() + '"'
        if r < 0.45:
            return self.param()
        if r < 0.6:
            return self.array_ref()
        if r < 0.7:
            return "$(( " + self.arith() + " ))"
        if r < 0.78:
            return '"$(' + self.simple_command() + ')"'
        if r < 0.85:
            return self.pick(["{1..3}", "{a,b}{c,d}", "{3..1}", "{a..e..2}", "x{,y}", "{01..03}"])
        return shell_quote(self.pick(WORDS))

    # ---- arithmetic -----------------------------------------------------------

    def arith(self, depth=0):
        if depth > 2 or self.chance(0.35):
            return self.pick(NUMBERS + ["n", "x", "i", "arr[1]", "unset_var", "y"])
        r = self.rng.random()
        a, b = self.arith(depth + 1), self.arith(depth + 1)
        if r < 0.55:
            op = self.pick(["+", "-", "*", "/", "%", "**", "<<", ">>", "&", "|", "^", "&&", "||", "<",
                            "<=", "==", "!=", ">", ">="])
            return "%s %s %s" % (a, op, b) if self.chance(0.7) else "%s%s%s" % (a, op, b)
        if r < 0.65:
            return "(%s)" % a
        if r < 0.72:
            return "%s ? %s : %s" % (a, b, self.arith(depth + 1))
        if r < 0.8:
            return self.pick(["-", "!", "~", "+"]) + a
        if r < 0.9:
            return "%s %s %s" % (self.pick(["n", "i", "x"]), self.pick(["=", "+=", "-=", "*=", "/=", "%=",
                                                                        "<<=", "|="]), b)
        return self.pick(["n++", "++n", "i--", "--i", "n++ + ++n", "a=b=3", "x,y"])

    # ---- statements -----------------------------------------------------------

    def simple_command(self):
        r = self.rng.random()
        if r < 0.35:
            return "echo " + " ".join(self.word() for _ in range(self.rng.randint(1, 3)))
        if r < 0.55:
            return "printf %s %s" % (shell_quote(self.pick(FORMATS)).replace("\\\\", "\\"),
                                     " ".join(self.word() for _ in range(self.rng.randint(0, 3))))
        if r < 0.75:
            return self.pipeline()
        if r < 0.85:
            return self.pick(["true", "false", "(exit 3)", "unknown_cmd_x", "cd /nonexistent_dir",
                              ": ${unset_var:?oops}", "return 2", "local q=1", "shift", "shift 5"])
        return self.pick(["basename /a/b/c.txt .txt", "dirname /a/b/c", "expr 3 + 4", "expr 5 \\* 2",
                          "seq 3", "wc -c <<< abc", "test -n \"$x\"", "[ -z \"$y\" ]", "pwd", "type echo",
                          "command -v ls", "echo ~", "echo $((16#ff))"])

    def pipeline(self):
        parts = [self.pick(SOURCES)]
        for _ in range(self.rng.randint(1, 3)):
            parts.append(self.pick(FILTERS))
        return " | ".join(parts)

    def condition(self):
        r = self.rng.random()
        if r < 0.55:
            a = self.word()
            tests = [
                "-n %s" % a, "-z %s" % a, "%s == %s" % (a, self.pick(PATTERNS)), "%s != %s" % (a, self.word()),
                "%s =~ %s" % (a, self.pick(["^a", "[0-9]+$", "(o+)", "^h.*d$", "b|c", "'a b'"])),
                "%s -eq %s" % (self.pick(NUMBERS), self.pick(NUMBERS + ["x", "abc", "1.0"])),
                "%s -lt %s" % (self.pick(NUMBERS), self.pick(NUMBERS)), "-v %s" % self.pick(SCALARS + ARRAYS + ["arr[1]", "m[k]"]),
                "-f %s" % self.pick(FILES), "-d %s" % self.pick(["/", "d", "f1"]), "%s < %s" % (a, self.word()),
                "-e %s" % self.pick(FILES), "-s %s" % self.pick(FILES),
            ]
            inner = self.pick(tests)
            if self.chance(0.2):
                inner = "! " + inner
            if self.chance(0.2):
                inner += self.pick([" && ", " || "]) + self.pick(tests)
            return "[[ %s ]]" % inner
        if r < 0.75:
            return self.bracket_test()
        if r < 0.9:
            return "(( %s ))" % self.arith()
        return self.simple_command()

    def bracket_test(self):
        form = self.pick(["[ %s = %s ]", "[ %s != %s ]", "test %s -gt %s", "[ %s -le %s ]", "[ -n %s ]",
                          "[ %s ]", "[ ! -e %s ]", "[ %s -a %s ]"])
        args = tuple(self.word() if self.chance(0.6) else self.pick(NUMBERS) for _ in range(form.count("%s")))
        return form % args

    def body(self):
        self.depth += 1
        count = self.rng.randint(1, 3)
        text = "; ".join(self.statement()[1] for _ in range(count))
        self.depth -= 1
        return text

    def statement(self):
        """One statement as `(kind, text)`."""
        kinds = [
            (12, "assign"), (6, "array"), (3, "assoc"), (4, "declare"), (14, "echo"), (7, "printf"),
            (8, "arith"), (8, "test"), (7, "pipeline"), (5, "redirect"), (4, "heredoc"), (4, "read"),
            (2, "getopts"), (3, "ifs"), (3, "glob"), (3, "option"), (2, "trap"), (3, "subshell"),
            (4, "function"), (5, "control"), (3, "case"), (3, "error"), (2, "nameref"), (4, "errexit"),
            (2, "fdredirect"), (2, "splitread"),
        ]
        if self.depth >= 1:
            kinds = [k for k in kinds if k[1] not in ("function", "control", "case", "trap", "getopts", "errexit")]
        total = sum(w for w, _ in kinds)
        r = self.rng.random() * total
        for weight, kind in kinds:
            r -= weight
            if r < 0:
                return kind, getattr(self, "gen_" + kind)()
        return "echo", self.gen_echo()

    def gen_assign(self):
        name = self.pick(SCALARS + ["i"])
        if self.chance(0.3):
            return "%s=%s" % (name, self.word())
        if self.chance(0.15):
            return "%s+=%s" % (name, self.value())
        return "%s=%s" % (name, self.value())

    def gen_array(self):
        a = self.pick(ARRAYS)
        return self.pick([
            "%s=(%s)" % (a, " ".join(self.value() for _ in range(self.rng.randint(0, 4)))),
            "%s+=(%s)" % (a, self.value()), "%s[%s]=%s" % (a, self.pick(["0", "1", "5", "-1", "n", "i+1"]), self.value()),
            "unset '%s[%s]'" % (a, self.pick(["0", "1", "-1"])), "%s=()" % a,
            "for e in \"${%s[@]}\"; do echo \"<$e>\"; done" % a, "echo ${#%s[@]} \"${%s[@]}\"" % (a, a),
            "read -ra %s <<< %s" % (a, self.value()), "%s=($(%s))" % (a, self.pick(SOURCES)),
        ])

    def gen_assoc(self):
        return self.pick([
            "declare -A m=([k]=v [%s]=%s)" % (self.pick(["a", "b c", "1"]), self.value()),
            "declare -A m; m[%s]=%s" % (self.pick(["k", "x y", "$x", "", "1"]), self.value()),
            "for k in \"${!m[@]}\"; do echo \"$k=${m[$k]}\"; done | sort",
            "echo ${#m[@]} ${m[k]-none}", "unset 'm[k]'", "[[ -v m[k] ]] && echo has || echo missing",
        ])

    def gen_declare(self):
        return self.pick([
            "declare -i n=%s" % shell_quote(self.arith()), "declare -i n; n=%s" % self.value(),
            "declare -r r=%s" % self.value(), "readonly r2=1; r2=2", "declare -l lo=%s; echo $lo" % self.value(),
            "declare -u up=%s; echo $up" % self.value(), "declare -p %s" % self.pick(SCALARS + ARRAYS + ASSOCS + ["unset_var"]),
            "unset %s" % self.pick(SCALARS + ARRAYS), "declare -a idx=(%s)" % self.value(),
            "declare -x ex=1; env | grep '^ex='", "x=%s declare -p x" % self.value(),
            "local notinfunc=1", "declare -i n=5; n+=3; echo $n",
        ])

    def gen_echo(self):
        flags = self.pick(["", "", "", "-n ", "-e ", "-E "])
        return "echo %s%s" % (flags, " ".join(self.word() for _ in range(self.rng.randint(1, 4))))

    def gen_printf(self):
        return self.simple_command() if self.chance(0.2) else "printf %s %s" % (
            shell_quote(self.pick(FORMATS)).replace("\\\\", "\\"),
            " ".join(self.word() if self.chance(0.5) else self.pick(NUMBERS + WORDS[:4] + ["abc", "1.5"])
                     for _ in range(self.rng.randint(0, 4))))

    def gen_arith(self):
        e = self.arith()
        return self.pick([
            "echo $((%s))" % e, "(( %s )); echo $?" % e, "let %s; echo $?" % shell_quote(e),
            "x=$((%s)); echo \"$x\"" % e, "echo $[%s]" % e, "n=$((n + 1)); echo $n", "((i++)); echo $i",
        ])

    def gen_test(self):
        return "%s && echo yes || echo no" % self.condition()

    def gen_pipeline(self):
        p = self.pipeline()
        return self.pick([p, p + "; echo \"${PIPESTATUS[@]}\"", "x=$(%s); echo \"$x\"" % p, p + " > f1; cat f1"])

    def gen_redirect(self):
        return self.pick([
            "echo %s > f1; cat f1" % self.word(), "echo %s >> f1; cat f1" % self.word(), "cat < f1",
            "cat nonexistent_file 2>&1", "{ echo a; echo b >&2; } 2>/dev/null", "ls no_such 2>/dev/null; echo $?",
            "exec 3>f2; echo three >&3; exec 3>&-; cat f2", "echo hi >&-; echo rc=$?", "echo x 2>&1 >/dev/null",
            "cat <<< %s" % self.value(), "wc -l < f1", "echo data > d; cat d > f2; cat f2",
            "printf 'a\\nb\\n' > f1; while read -r l; do echo \"<$l>\"; done < f1", ": > f1; wc -c f1",
            "echo err >&2", "cat f1 f2 2>&1 | sort",
        ])

    def gen_heredoc(self):
        lines = [self.pick(["$x", "${arr[@]}", "plain text", "$((1+2))", "\\$x", "$(echo sub)", "'q' \"dq\"", "${unset_var-d}",
                            "\ttabbed", "back\\\\slash", "`echo bq`", "${s:-dflt} ${#arr[@]}", "trailing \\", "$", "a\\\nb"])
                 for _ in range(self.rng.randint(1, 3))]
        form = self.pick(["EOF", "'EOF'", "\"EOF\"", "E\\OF", "-EOF", "-'EOF'"])
        cmd = self.pick(["cat", "cat -n", "wc -l", "sort", "while read -r a; do echo \"r:$a\"; done", "read -r first; echo \"[$first]\"",
                         "f() { cat; }; f", "x=$(cat); echo \"[$x]\"", "tr a-z A-Z", "cat > f1; cat f1"])
        body = "\n".join(lines)
        if form.startswith("-"):
            body = "\n".join("\t" + line for line in lines) + "\n\tEOF"
            return "%s <<%s\n%s" % (cmd, form, body)
        if self.chance(0.15):
            return "cat <<A; cat <<B\n%s\nA\nsecond $x\nB" % body
        return "%s <<%s\n%s\nEOF" % (cmd, form, body)

    def gen_read(self):
        return self.pick([
            "read -r a b <<< %s; echo \"$a|$b\"" % self.value(), "IFS=: read -ra parts <<< %s; echo ${#parts[@]} \"${parts[1]}\"" % self.value(),
            "mapfile -t lines < <(%s); echo ${#lines[@]} \"${lines[0]}\"" % self.pick(SOURCES),
            "mapfile -t -d, parts <<< 'a,b,c'; echo \"${parts[@]}\"", "read -r -n 2 c <<< hello; echo $c",
            "read -a w <<< %s; echo ${w[0]}" % self.value(), "echo 'a b' | { read x y; echo \"$x-$y\"; }",
            "read -r line < f1; echo \"$line\"; echo $?", "printf 'p q\\n' | read u v; echo \"[$u]\"",
            "IFS= read -r raw <<< %s; echo \"[$raw]\"" % self.value(), "read -d : tok <<< 'ab:cd'; echo $tok",
        ])

    def gen_getopts(self):
        args = " ".join(self.pick(["-a", "-b val", "-c", "-ab", "-bX", "--", "file", "-z", "-b", "-cb", "-", "'-a b'"])
                        for _ in range(self.rng.randint(1, 4)))
        spec = self.pick(["ab:c", ":ab:c", "a:b:", ":a", "abc", "b:"])
        body = self.pick([
            'echo "$o=${OPTARG-}"',
            'case $o in a) echo A;; b) echo "B=$OPTARG";; :) echo "missing $OPTARG";; \\?) echo "bad ${OPTARG-}";; *) echo "o=$o";; esac',
            'echo "$o $OPTIND ${OPTARG-unset}"',
        ])
        if self.chance(0.25):
            return ('p() { local OPTIND=1 o; while getopts "%s" o "$@"; do %s; done; shift $((OPTIND-1)); echo "rest:$#:$*"; }; p %s'
                    % (spec, body, args))
        return ('set -- %s; OPTIND=1; while getopts "%s" o; do %s; done; echo "st=$? ind=$OPTIND"; shift $((OPTIND-1)); echo "rest:$*"'
                % (args, spec, body))

    def gen_ifs(self):
        return self.pick([
            "IFS=,; set -- $(echo 'a,b,,c'); echo $#; IFS=' '", "IFS=: ; v=a:b:c; echo $v; set -- $v; echo $#; unset IFS",
            "set -- %s; echo $#; echo \"$*\"; echo \"$@\"" % " ".join(self.word() for _ in range(2)),
            "IFS=; x='a b'; set -- $x; echo $#; unset IFS", "v='  a  b  '; set -- $v; echo $# \"$1\"",
            "IFS=-; echo \"${arr[*]}\"; unset IFS", "for w in $s; do echo \"w=$w\"; done",
        ])

    def gen_glob(self):
        return self.pick([
            "touch a.txt b.txt c.log; echo *.txt", "echo nomatch*", "shopt -s nullglob; echo *.none; shopt -u nullglob",
            "touch ab ac bd; shopt -s extglob; echo !(a*)", "touch x1 x2; echo x[12] x?", "echo [ab]*",
            "shopt -s failglob; echo zz*; echo after", "mkdir -p d/e; touch d/e/f; echo d/*/*", "touch .hid v; echo *",
            "for f in *.txt; do echo \"file $f\"; done", "shopt -s dotglob; echo .h*; shopt -u dotglob",
            "touch Ab b1 _c; echo [[:upper:]]* [[:digit:]]* [![:alpha:]]*", "touch a.TXT; shopt -s nocaseglob; echo *.txt; shopt -u nocaseglob",
            "mkdir -p g/h; touch g/h/i.txt g/j.txt; shopt -s globstar; echo **/*.txt; shopt -u globstar",
            "touch a1 a2 b1; GLOBIGNORE='a1'; echo a* b*; unset GLOBIGNORE", "v='*'; echo $v \"$v\" '*'",
            "touch 'sp ace' x.y; for f in *; do echo \"<$f>\"; done", "echo \\* a\\?b", "x=*; echo \"$x\"",
            "touch q1 q2; arr=(q*); echo ${#arr[@]}", "shopt -s extglob\ntouch m.c n.h; echo *.@(c|h) !(*.c)",
            "echo /[u]sr", "touch f; echo f/* f*/", "set -f; echo *; set +f",
        ])

    def gen_option(self):
        return self.pick(["set -e", "set -u", "set -o pipefail", "set +e", "set +u", "shopt -s lastpipe",
                          "set -o noglob", "set +o noglob", "set -f", "set -C; echo a > f1; echo $?"])

    def gen_trap(self):
        return self.pick([
            "trap 'echo exit-trap $?' EXIT", "trap 'echo err-trap' ERR", "trap 'echo ret' RETURN",
            "trap - EXIT", "trap -p EXIT", "trap 'echo err $LINENO' ERR; false; echo after; trap - ERR",
            "f() { trap 'echo in-f-ret' RETURN; echo body; }; f; trap - RETURN",
            "trap 'echo usr1' USR1; kill -USR1 $$; echo after", "trap 'echo a' EXIT; trap 'echo b' EXIT",
            "trap '' INT; trap -p INT; trap - INT", "( trap 'echo sub-exit' EXIT; echo in; exit 3 ); echo \"st=$?\"",
            "trap 'echo caught $?' EXIT; (exit 4)", "trap 'echo t1' TERM USR2; trap -p TERM USR2",
            "trap 'echo bad' NOSIG; echo $?", "trap -p | wc -l", "trap 'echo x' 0; trap -p EXIT",
            "set -e; trap 'echo on-exit $?' EXIT; false; echo not-reached",
            "trap 'echo dbg' DEBUG; :; trap - DEBUG", "trap 'echo in-err; exit 7' ERR; false; echo not",
        ])

    def gen_errexit(self):
        """`set -e`, `set -u` and `pipefail` in the contexts that exempt them;
        half of the time in a subshell so the script goes on."""
        body = self.pick([
            "set -e; f() { false; echo in-f; }; f || echo caught", "set -e; false && true; echo after",
            "set -e; ! true; echo after", "set -e; (false); echo not", "set -e; x=$(false); echo not",
            "set -e; local_fn() { return 1; }; local_fn; echo not", "set -e; declare x=$(false); echo declared",
            "set -e; if false; then :; fi; echo ok", "set -e; while false; do :; done; echo ok",
            "set -e; false || false; echo not", "set -e; { false; echo in-group; } || echo rescued",
            "set -e; x=$(false; echo still); echo \"[$x]\"", "set -e; shopt -s inherit_errexit; x=$(false; echo still); echo \"[$x]\"",
            "set -e; for i in 1 2; do false; done; echo not", "set -e; case a in a) false;; esac; echo not",
            "set -e; f() { false; echo in-f; }; if f; then echo then; fi", "set -eo pipefail; false | true; echo not",
            "set -o pipefail; false | true; echo $?", "set -e; true | false; echo not", "set -e; echo $((0)); let 0; echo not",
            "set -u; echo ${arr[@]}; echo ok", "set -u; e=(); echo ${#e[@]} \"${e[@]}\" ok", "set -u; echo \"$1\"",
            "set -u; echo ${unset_var:-d} ${unset_var-d}; echo ${unset_var}", "set -u; f() { echo \"$1\"; }; f",
            "set -u; echo $#; echo \"$@\" ok", "set -u; declare -A h; echo ${h[k]}", "set -u; (( unset_var + 1 )); echo not",
            "set -u; echo ${#unset_var}", "set -u; unset_var+=x; echo $unset_var", "set -eu; echo ${unset_var:?need it}",
            "set -e; trap 'echo err-trap' ERR; false; echo not", "set -E; trap 'echo err-in' ERR; f() { false; }; f; echo after",
            "set -e; (( 0 )); echo not", "set -e; [[ a == b ]]; echo not", "set -e; test -n ''; echo not",
        ])
        if self.chance(0.5):
            return "( %s ); echo \"sub=$?\"" % body
        return body

    def gen_fdredirect(self):
        """Descriptor juggling and the redirection operators beyond > and <."""
        return self.pick([
            "echo out &> f1; cat f1", "echo more &>> f1; echo again &>> f1; cat f1", "set -C; echo a > f1; echo b >| f1; cat f1; set +C",
            "{ echo so; echo se >&2; } 2>&1 | sort", "{ echo so; echo se >&2; } > f1 2>&1; cat f1", "{ echo so; echo se >&2; } 2>&1 > f1; cat f1",
            "exec {fd}>f2; echo via-fd >&$fd; exec {fd}>&-; cat f2", "echo abc > f1; exec 4<f1; read -r l <&4; echo \"$l\"; exec 4<&-",
            "echo hi > f1; cat <> f1", "for i in 1 2; do echo $i; done > f1; cat f1", "if true; then echo in-if; fi 2>&1 > f1; cat f1",
            "echo a > \"$unset_var\"; echo $?", "echo a > /nonexistent/x; echo $?", "cat < missing_file; echo $?", "mkdir -p dd; echo a > dd; echo $?",
            "echo x 3>&1 1>&2 2>&3 | cat", "exec 3>&1; echo to3 >&3; exec 3>&-", "echo a >&5; echo $?", "cat <&5; echo $?",
            "f() { echo f-out; echo f-err >&2; }; f 2>/dev/null; f 2>&1 >/dev/null", "echo one 1>f1 2>f2; cat f1 f2",
            "echo $(echo inner >&2) 2>/dev/null", "x=$( { echo a; echo b >&2; } 2>&1 ); echo \"[$x]\"",
            "while read -r l; do echo \"<$l>\"; done < <(printf 'p\\nq\\n')", "cat <(echo proc) <(echo sub)",
            "tee f1 <<< tee-me > /dev/null; cat f1", "echo a >> f1 >> f2; cat f1 f2", "printf 'x' > f1; wc -c < f1",
        ])

    def gen_splitread(self):
        """IFS splitting, `read` and `mapfile` with their options."""
        v = self.value()
        return self.pick([
            "IFS=', ' read -r a b c <<< 'x, y,,z'; echo \"[$a][$b][$c]\"", "IFS=, read -r a b <<< 'one,two,three'; echo \"[$a][$b]\"",
            "IFS=: read -r a b <<< ':lead:'; echo \"[$a][$b]\"", "read -r a <<< '  pad  '; echo \"[$a]\"", "IFS= read -r a <<< '  pad  '; echo \"[$a]\"",
            "read a <<< 'back\\slash cont'; echo \"[$a]\"", "read -r a <<< 'back\\slash'; echo \"[$a]\"", "read -N 3 a <<< abcdef; echo \"[$a]\"",
            "read -n 0 a <<< abc; echo \"[$a] $?\"", "read -d '' a < <(printf 'x\\ny'); echo \"[$a] $?\"", "printf 'no-nl' | { read -r a; echo \"[$a] $?\"; }",
            "mapfile -n 2 l < <(seq 5); echo \"${l[@]}\"", "mapfile -s 2 -t l < <(seq 5); echo \"${l[@]}\"", "l=(x y); mapfile -O 1 -t l < <(seq 2); echo \"${l[@]}\"",
            "mapfile l <<< $'a\\nb'; printf '[%s]' \"${l[@]}\"; echo", "readarray -t l <<< %s; echo ${#l[@]}" % v,
            "while IFS=, read -r a b; do echo \"$b/$a\"; done <<< $'1,2\\n3,4'", "while read -r a; do echo \"<$a>\"; done <<< ''",
            "IFS=$'\\n'; set -- $(printf 'a b\\nc d'); echo $#; unset IFS", "IFS=:; v=%s; set -- $v; echo $# \"$*\"; unset IFS" % v,
            "set -- a 'b c' d; IFS=-; echo \"$*\"; IFS=; echo \"$*\"; unset IFS; echo \"$*\"", "v=%s; IFS=' a'; w=($v); echo ${#w[@]}; unset IFS" % v,
            "v=' x  y '; w=($v); echo ${#w[@]} \"${w[0]}\"", "IFS=x; v=axbxxc; echo $v; w=($v); echo ${#w[@]}; unset IFS",
            "read -r -a w <<< %s; echo ${#w[@]} \"${w[-1]-}\"" % v, "read -p 'prompt: ' a <<< in; echo \"[$a]\"", "read -t 0 a <<< x; echo $?",
            "read; echo \"[$REPLY]\"", "echo a b | (read -r x; echo \"[$x]\")", "read a b <<< 'only'; echo \"[$a][${b-unset}]\"",
        ])

    def gen_subshell(self):
        return self.pick([
            "( cd /; pwd ); pwd", "x=$(echo a; exit 3); echo $? $x", "echo \"$(printf '%s,' a b)\"",
            "( exit 4 ); echo $?", "( x=inner; echo $x ); echo ${x-outer}", "echo $(echo a   b)",
            "v=`echo back`; echo $v", "out=$( %s ); echo \"[$out]\"" % self.simple_command(),
            "{ echo grouped; false; }; echo $?", "echo $(( $(echo 3) * 2 ))",
        ])

    def gen_function(self):
        name = self.pick(["f", "g"])
        body = self.body()
        ret = self.pick(["", "; return 3", "; return", "; local lv=%s; echo \"$lv\"" % self.value()])
        call_args = " ".join(self.word() for _ in range(self.rng.randint(0, 2)))
        return "%s() { echo \"%s:$#:${1-}\"; %s%s; }; %s %s; echo \"st=$?\"" % (name, name, body, ret, name, call_args)

    def gen_control(self):
        r = self.rng.random()
        if r < 0.3:
            return "if %s; then %s; elif %s; then echo elif; else %s; fi" % (self.condition(), self.body(), self.condition(), self.body())
        if r < 0.55:
            items = " ".join(self.word() for _ in range(self.rng.randint(1, 3)))
            return "for i in %s; do %s; done" % (items, self.body())
        if r < 0.7:
            # `j`, which no other statement assigns: the loop stays bounded.
            return "for ((j=0; j<%d; j++)); do %s; done" % (self.rng.randint(0, 3), self.body())
        if r < 0.85:
            return "c=0; while (( c < %d )); do c=$((c+1)); %s; done; echo \"c=$c\"" % (self.rng.randint(0, 3), self.body())
        return "for i in 1 2 3; do %s; [[ $i == 2 ]] && %s; echo \"i=$i\"; done" % (self.body(), self.pick(["break", "continue", "break 1"]))

    def gen_case(self):
        arms = " ".join("%s) echo %s ;;" % (self.pick(PATTERNS + ["a|b", "''", "[0-9]*", "*\\**"]), shell_quote(self.pick(WORDS)))
                        for _ in range(self.rng.randint(1, 3)))
        return "case %s in %s *) echo default ;; esac" % (self.word(), arms)

    def gen_error(self):
        return self.pick([
            "echo ${unset_var?no value}", "a=(); echo \"${a[-1]}\"", "echo $((1/0))", "echo $((5 % 0))",
            "x=abc; echo $((x + 1))", "declare -i di=abc; echo $di", "echo ${x:1:2:3}", "unknown_cmd_y arg",
            "cd /nope; echo $?", "echo $(( 2 ** -1 ))", "let 'x=5, 1 +'; echo $x", "echo $((5--5))",
            "x=0; ((x *= ++x)); echo $x", "p=foo; echo ${p/o*/\\&}", "a=(); [[ -v a ]] && echo set || echo unset",
            "f() { return 300; }; f; echo $?", "exit_code() { return $1; }; exit_code 7; echo $?",
            "echo ${#unset_arr[@]}", "declare -A m; x=; m[$x]=v; echo $?", "echo \"${arr[@]:-empty}\"",
            "readonly ro=1; ro=2; echo $?", "echo $(( 08 ))", "echo $(( 1 + ))", "[[ 1.0 -eq 1 ]]; echo $?",
            "printf '%d\\n' abc; echo $?", "shift 3; echo $?", "set -- a; echo ${2?missing}",
        ])

    def gen_nameref(self):
        return self.pick([
            "ref=x; echo ${!ref}", "declare -n nr=x; nr=%s; echo \"$x\"" % self.value(),
            "arrname=arr; eval 'echo ${#'$arrname'[@]}'", "vname=y; printf -v $vname '%s' hi; echo $y",
            "prefix_a=1 prefix_b=2; echo ${!prefix_@}", "idx=1; echo ${arr[idx]}",
        ])


def generate(rng, min_statements=3, max_statements=15):
    """A script as a list of `(kind, text)` statements."""
    grammar = Grammar(rng)
    count = rng.randint(min_statements, max_statements)
    return [grammar.statement() for _ in range(count)]
