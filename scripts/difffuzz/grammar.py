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
            (4, "function"), (5, "control"), (3, "case"), (3, "error"), (2, "nameref"),
        ]
        if self.depth >= 1:
            kinds = [k for k in kinds if k[1] not in ("function", "control", "case", "trap", "getopts")]
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
        lines = [self.pick(["$x", "${arr[@]}", "plain text", "$((1+2))", "\\$x", "$(echo sub)", "'q' \"dq\"", "${unset_var-d}"])
                 for _ in range(self.rng.randint(1, 3))]
        form = self.pick(["EOF", "'EOF'", "\"EOF\""])
        cmd = self.pick(["cat", "cat -n", "wc -l", "sort", "while read -r a; do echo \"r:$a\"; done"])
        return "%s <<%s\n%s\nEOF" % (cmd, form, "\n".join(lines))

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
        args = " ".join(self.pick(["-a", "-b val", "-c", "-ab", "-bX", "--", "file", "-z", "-b"]) for _ in range(self.rng.randint(1, 4)))
        return ('set -- %s; OPTIND=1; while getopts "ab:c" o; do echo "$o=${OPTARG-}"; done; shift $((OPTIND-1)); echo "rest:$*"' % args)

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
        ])

    def gen_option(self):
        return self.pick(["set -e", "set -u", "set -o pipefail", "set +e", "set +u", "shopt -s lastpipe",
                          "set -o noglob", "set +o noglob", "set -f", "set -C; echo a > f1; echo $?"])

    def gen_trap(self):
        return self.pick(["trap 'echo exit-trap $?' EXIT", "trap 'echo err-trap' ERR", "trap 'echo ret' RETURN",
                          "trap - EXIT", "trap -p EXIT"])

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
            return "for ((i=0; i<%d; i++)); do %s; done" % (self.rng.randint(0, 3), self.body())
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
