"""Pools of names, values and small building blocks the grammar draws from."""

SCALARS = ["x", "y", "s", "n", "v"]
ARRAYS = ["arr", "list"]
ASSOCS = ["m"]
FILES = ["f1", "f2", "out.txt"]

# Values worth assigning: blanks, globs, numbers in several bases, UTF-8.
VALUES = [
    "a", "hello world", "foo.txt", "a*b", "  lead trail  ", "x=1", "-n", "3", "-7", "010",
    "0x1f", "", "é", "a:b:c", "*", "[ab]", "1 2 3", "a,b,,c", "path/to/file.tar.gz",
    "Hello World", "42", "3.5", "tab\there", "line1\nline2", "back\\slash", "'q'", '"dq"',
]

WORDS = ["a", "b", "c", "foo", "bar", "x y", "1", "2", "10", "-1", "é", "*", "", "a b c"]

PATTERNS = ["*", "a*", "*o*", "?", "[a-c]*", "*.txt", "f*", "h*o", "*[0-9]", "@(a|b)", "+([0-9])"]

NUMBERS = ["0", "1", "2", "3", "7", "10", "-1", "-5", "255", "0x10", "010", "8#17", "2#101", "64#z"]

FORMATS = [
    "%s\\n", "%d\\n", "[%5s]\\n", "[%-5s]\\n", "%05d\\n", "%x %X %o\\n", "%e\\n", "%.2f\\n",
    "%b\\n", "%q\\n", "%c\\n", "%s|%s\\n", "%3d|%-3d|\\n", "%i\\n", "%u\\n", "%%\\n", "%.3s\\n",
    "%*d\\n", "%#x\\n", "%+d\\n", "% d\\n", "%10.4f|\\n", "%g\\n", "%s\\n%s\\n", "%-3s|\\n",
]

SOURCES = [
    "printf 'c\\nb\\na\\nb\\n'", "seq 1 6", "echo 'a b c'", "printf '%s\\n' one two three",
    "printf 'k=1\\nj=22\\nk=3\\n'", "echo", "printf 'x y\\n\\nz w\\n'", "seq 10 -3 1",
    "printf 'a,b\\nc,d\\n'", "printf 'no newline'", "echo 'é à ü'",
]

FILTERS = [
    "sort", "sort -r", "sort -n", "sort -u", "uniq", "uniq -c", "tr a-z A-Z", "tr -d ' '",
    "cut -d' ' -f2", "cut -c1-2", "cut -d, -f1", "head -n 2", "tail -n 1", "wc -l", "wc -w", "wc -c",
    "grep b", "grep -v a", "grep -c .", "sed 's/a/X/'", "sed -n '2p'", "rev", "cat -n", "paste -sd+",
    "tac", "nl", "fold -w 3", "sort -t= -k2 -n",
    "while read -r l; do echo \"[$l]\"; done",
    "while IFS= read -r a b; do echo \"$a|$b\"; done",
    "xargs echo", "xargs -n 1 echo -", "od -c | head -n 2", "head -c 5",
]
