//! The paragraph filler behind `fmt`: reads a whole input, finds its
//! paragraphs (by indentation, prefix and blank lines), and breaks each into
//! lines by the same optimal-fit costs GNU fmt uses (the shortfall from the
//! goal width squared, raggedness between neighbouring lines, bonuses for
//! breaking at sentence ends and punctuation, penalties for widows and
//! orphans), so the output equals GNU's byte for byte.

/// Costs, as the squared equivalent departure from the goal width times 10.
type Cost = i64;

const MAX_COST: Cost = Cost::MAX;
const LEEWAY: usize = 7;
const DEF_INDENT: i64 = 3;
const TAB_WIDTH: i64 = 8;
/// The most words held before part of a long paragraph is written out.
const MAX_WORDS: usize = 1000;
/// The most bytes of text held before part of a long paragraph is written out.
pub const MAX_CHARS: usize = 5000;

const fn equiv(n: i64) -> Cost {
    n * n
}

fn short_cost(n: i64) -> Cost {
    equiv(n.saturating_mul(10).clamp(-3_000_000_000, 3_000_000_000))
}

fn ragged_cost(n: i64) -> Cost {
    short_cost(n) / 2
}

const LINE_COST: Cost = equiv(70);
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);
const LINE_CREDIT: Cost = equiv(3);

fn widow_cost(length: i64) -> Cost {
    equiv(200) / (length + 2)
}

fn orphan_cost(length: i64) -> Cost {
    equiv(150) / (length + 2)
}

/// What the options ask for.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `-c`: the first two lines may differ in indentation.
    pub crown: bool,
    /// `-t`: the first two lines must differ in indentation.
    pub tagged: bool,
    /// `-s`: each line is a paragraph; long lines are split, never joined.
    pub split: bool,
    /// `-u`: one space between words, two after sentences.
    pub uniform: bool,
    /// `-p`: the prefix without its surrounding spaces.
    pub prefix: Vec<u8>,
    /// The prefix's length without leading spaces (trailing spaces kept).
    pub prefix_full_length: i64,
    /// The number of spaces before the prefix as given.
    pub prefix_lead_space: i64,
    /// The longest line allowed.
    pub max_width: i64,
    /// The width lines aim for.
    pub goal_width: i64,
}

impl Settings {
    /// Records `-p STRING`: spaces around it are trimmed, the leading ones counted.
    pub fn set_prefix(&mut self, text: &[u8]) {
        let lead = text.iter().take_while(|b| **b == b' ').count();
        let rest = text.get(lead..).unwrap_or(&[]);
        let trail = rest.iter().rev().take_while(|b| **b == b' ').count();
        self.prefix_lead_space = lead as i64;
        self.prefix_full_length = rest.len() as i64;
        self.prefix = rest.get(..rest.len() - trail).unwrap_or(&[]).to_vec();
    }

    /// The goal width GNU derives from a maximum width.
    pub fn default_goal(max_width: i64) -> i64 {
        max_width * (2 * (100 - LEEWAY as i64) + 1) / 200
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Word {
    text: usize,
    length: i64,
    space: i64,
    paren: bool,
    period: bool,
    punct: bool,
    final_: bool,
    line_length: i64,
    best_cost: Cost,
    next_break: usize,
}

/// One input being formatted, and its output.
struct Formatter<'a> {
    settings: &'a Settings,
    input: &'a [u8],
    position: usize,
    out: Vec<u8>,
    in_column: i64,
    out_column: i64,
    parabuf: Vec<u8>,
    words: Vec<Word>,
    word_limit: usize,
    tabs: bool,
    prefix_indent: i64,
    first_indent: i64,
    other_indent: i64,
    next_char: Option<u8>,
    next_prefix_indent: i64,
    last_line_length: i64,
}

/// Formats one whole input.
pub fn format(settings: &Settings, input: &[u8]) -> Vec<u8> {
    let mut formatter = Formatter {
        settings,
        input,
        position: 0,
        out: Vec::with_capacity(input.len() + input.len() / 8),
        in_column: 0,
        out_column: 0,
        parabuf: Vec::with_capacity(MAX_CHARS),
        words: vec![Word::default(); MAX_WORDS],
        word_limit: 0,
        tabs: false,
        prefix_indent: 0,
        first_indent: 0,
        other_indent: 0,
        next_char: None,
        next_prefix_indent: 0,
        last_line_length: 0,
    };
    formatter.next_char = formatter.get_prefix();
    while formatter.get_paragraph() {
        formatter.fmt_paragraph();
        formatter.put_paragraph(formatter.word_limit);
    }
    formatter.out
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

impl Formatter<'_> {
    fn getc(&mut self) -> Option<u8> {
        let byte = self.input.get(self.position).copied();
        if byte.is_some() {
            self.position += 1;
        }
        byte
    }

    fn word(&self, index: usize) -> Word {
        self.words.get(index).copied().unwrap_or_default()
    }

    fn word_mut(&mut self, index: usize) -> &mut Word {
        if index >= self.words.len() {
            self.words.resize(index + 1, Word::default());
        }
        &mut self.words[index]
    }

    fn set_other_indent(&mut self, same_paragraph: bool) {
        let s = self.settings;
        if s.split {
            self.other_indent = self.first_indent;
        } else if s.crown {
            self.other_indent = if same_paragraph { self.in_column } else { self.first_indent };
        } else if s.tagged {
            if same_paragraph && self.in_column != self.first_indent {
                self.other_indent = self.in_column;
            } else if self.other_indent == self.first_indent {
                self.other_indent = if self.first_indent == 0 { DEF_INDENT } else { 0 };
            }
        } else {
            self.other_indent = self.first_indent;
        }
    }

    fn get_paragraph(&mut self) -> bool {
        self.last_line_length = 0;
        let mut c = self.next_char;
        let s = self.settings;
        while matches!(c, None | Some(b'\n'))
            || self.next_prefix_indent < s.prefix_lead_space
            || self.in_column < self.next_prefix_indent + s.prefix_full_length
        {
            c = self.copy_rest(c);
            if c.is_none() {
                self.next_char = None;
                return false;
            }
            self.out.push(b'\n');
            c = self.get_prefix();
        }
        self.prefix_indent = self.next_prefix_indent;
        self.first_indent = self.in_column;
        self.parabuf.clear();
        self.word_limit = 0;
        c = self.get_line(c);
        let same = self.same_para(c);
        self.set_other_indent(same);
        if s.split {
        } else if s.crown || s.tagged {
            let start = if s.crown { self.same_para(c) } else { self.same_para(c) && self.in_column != self.first_indent };
            if start {
                loop {
                    c = self.get_line(c);
                    if !(self.same_para(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else {
            while self.same_para(c) && self.in_column == self.other_indent {
                c = self.get_line(c);
            }
        }
        if self.word_limit > 0 {
            let last = self.word_mut(self.word_limit - 1);
            last.period = true;
            last.final_ = true;
        }
        self.next_char = c;
        true
    }

    fn copy_rest(&mut self, mut c: Option<u8>) -> Option<u8> {
        self.out_column = 0;
        let s = self.settings;
        let line_end = matches!(c, None | Some(b'\n'));
        if self.in_column > self.next_prefix_indent || !line_end {
            self.put_space(self.next_prefix_indent);
            let mut prefix = s.prefix.iter();
            while self.out_column != self.in_column {
                let Some(byte) = prefix.next() else { break };
                self.out.push(*byte);
                self.out_column += 1;
            }
            if !line_end {
                self.put_space(self.in_column - self.out_column);
            }
            if c.is_none() && self.in_column >= self.next_prefix_indent + s.prefix.len() as i64 {
                self.out.push(b'\n');
            }
        }
        while let Some(byte) = c {
            if byte == b'\n' {
                break;
            }
            self.out.push(byte);
            c = self.getc();
        }
        c
    }

    fn same_para(&self, c: Option<u8>) -> bool {
        self.next_prefix_indent == self.prefix_indent
            && self.in_column >= self.next_prefix_indent + self.settings.prefix_full_length
            && !matches!(c, None | Some(b'\n'))
    }

    fn get_line(&mut self, mut c: Option<u8>) -> Option<u8> {
        let end_of_word = MAX_WORDS - 2;
        loop {
            let start_text = self.parabuf.len();
            self.word_mut(self.word_limit).text = start_text;
            loop {
                if self.parabuf.len() >= MAX_CHARS {
                    self.set_other_indent(true);
                    self.flush_paragraph();
                }
                if let Some(byte) = c {
                    self.parabuf.push(byte);
                }
                c = self.getc();
                match c {
                    Some(byte) if !is_space(byte) => {}
                    _ => break,
                }
            }
            let text = self.word(self.word_limit).text;
            let length = (self.parabuf.len() - text.min(self.parabuf.len())) as i64;
            self.in_column += length;
            self.word_mut(self.word_limit).length = length;
            self.check_punctuation(self.word_limit);
            let start = self.in_column;
            c = self.get_space(c);
            let uniform = self.settings.uniform;
            let space = self.in_column - start;
            let w = self.word_mut(self.word_limit);
            w.space = space;
            w.final_ = c.is_none() || (w.period && (c == Some(b'\n') || w.space > 1));
            if matches!(c, None | Some(b'\n')) || uniform {
                w.space = if w.final_ { 2 } else { 1 };
            }
            if self.word_limit == end_of_word {
                self.set_other_indent(true);
                self.flush_paragraph();
            }
            self.word_limit += 1;
            if matches!(c, None | Some(b'\n')) {
                break;
            }
        }
        self.get_prefix()
    }

    fn get_prefix(&mut self) -> Option<u8> {
        self.in_column = 0;
        let first = self.getc();
        let mut c = self.get_space(first);
        let s = self.settings;
        if s.prefix.is_empty() {
            self.next_prefix_indent = s.prefix_lead_space.min(self.in_column);
        } else {
            self.next_prefix_indent = self.in_column;
            for &pc in &s.prefix {
                if c != Some(pc) {
                    return c;
                }
                self.in_column += 1;
                c = self.getc();
            }
            c = self.get_space(c);
        }
        c
    }

    fn get_space(&mut self, mut c: Option<u8>) -> Option<u8> {
        loop {
            match c {
                Some(b' ') => self.in_column += 1,
                Some(b'\t') => {
                    self.tabs = true;
                    self.in_column = (self.in_column / TAB_WIDTH + 1) * TAB_WIDTH;
                }
                _ => return c,
            }
            c = self.getc();
        }
    }

    fn check_punctuation(&mut self, index: usize) {
        let w = self.word(index);
        let text = self.parabuf.get(w.text..w.text + w.length.max(0) as usize).unwrap_or(&[]);
        let (Some(&first), Some(&last)) = (text.first(), text.last()) else { return };
        let mut finish = text.len() - 1;
        while finish > 0 && matches!(text.get(finish), Some(b')' | b']' | b'\'' | b'"')) {
            finish -= 1;
        }
        let period = matches!(text.get(finish), Some(b'.' | b'?' | b'!'));
        let w = self.word_mut(index);
        w.paren = matches!(first, b'(' | b'[' | b'\'' | b'`' | b'"');
        w.punct = last.is_ascii_punctuation();
        w.period = period;
    }

    fn flush_paragraph(&mut self) {
        if self.word_limit == 0 {
            let text = std::mem::take(&mut self.parabuf);
            self.out.extend_from_slice(&text);
            self.parabuf = text;
            self.parabuf.clear();
            return;
        }
        self.fmt_paragraph();
        let mut split_point = self.word_limit;
        let mut best_break = MAX_COST;
        let mut w = self.word(0).next_break;
        while w != self.word_limit {
            let here = self.word(w);
            let gain = here.best_cost.saturating_sub(self.word(here.next_break).best_cost);
            if gain < best_break {
                split_point = w;
                best_break = gain;
            }
            if best_break <= MAX_COST - LINE_CREDIT {
                best_break += LINE_CREDIT;
            }
            if here.next_break <= w {
                break;
            }
            w = here.next_break;
        }
        self.put_paragraph(split_point);
        let shift = self.word(split_point).text.min(self.parabuf.len());
        self.parabuf.drain(..shift);
        for index in split_point..=self.word_limit {
            let word = self.word_mut(index);
            word.text = word.text.saturating_sub(shift);
        }
        self.words.drain(..split_point);
        self.words.resize(MAX_WORDS, Word::default());
        self.word_limit -= split_point;
    }

    fn fmt_paragraph(&mut self) {
        let limit = self.word_limit;
        let max_width = self.settings.max_width;
        self.word_mut(limit).best_cost = 0;
        let saved_length = self.word(limit).length;
        self.word_mut(limit).length = max_width;
        for start in (0..limit).rev() {
            let mut best = MAX_COST;
            let mut len = if start == 0 { self.first_indent } else { self.other_indent };
            let mut w = start;
            len += self.word(w).length;
            loop {
                w += 1;
                let mut wcost = self.line_cost(w, len).saturating_add(self.word(w).best_cost);
                if start == 0 && self.last_line_length > 0 {
                    wcost = wcost.saturating_add(ragged_cost(len - self.last_line_length));
                }
                if wcost < best {
                    best = wcost;
                    let word = self.word_mut(start);
                    word.next_break = w;
                    word.line_length = len;
                }
                if w == limit {
                    break;
                }
                len += self.word(w - 1).space + self.word(w).length;
                if len >= max_width {
                    break;
                }
            }
            let base = self.base_cost(start);
            self.word_mut(start).best_cost = best.saturating_add(base);
        }
        self.word_mut(limit).length = saved_length;
    }

    fn base_cost(&self, this: usize) -> Cost {
        let mut cost = LINE_COST;
        let word = self.word(this);
        if this > 0 {
            let before = self.word(this - 1);
            if before.period {
                if before.final_ {
                    cost -= SENTENCE_BONUS;
                } else {
                    cost += NOBREAK_COST;
                }
            } else if before.punct {
                cost -= PUNCT_BONUS;
            } else if this > 1 && self.word(this - 2).final_ {
                cost += widow_cost(before.length);
            }
        }
        if word.paren {
            cost -= PAREN_BONUS;
        } else if word.final_ {
            cost += orphan_cost(word.length);
        }
        cost
    }

    fn line_cost(&self, next: usize, len: i64) -> Cost {
        if next == self.word_limit {
            return 0;
        }
        let mut cost = short_cost(self.settings.goal_width - len);
        let word = self.word(next);
        if word.next_break != self.word_limit {
            cost = cost.saturating_add(ragged_cost(len - word.line_length));
        }
        cost
    }

    fn put_paragraph(&mut self, finish: usize) {
        self.put_line(0, self.first_indent);
        let mut w = self.word(0).next_break;
        while w != finish && w < self.word_limit {
            self.put_line(w, self.other_indent);
            let next = self.word(w).next_break;
            if next <= w {
                break;
            }
            w = next;
        }
    }

    fn put_line(&mut self, mut w: usize, indent: i64) {
        self.out_column = 0;
        self.put_space(self.prefix_indent);
        let prefix = &self.settings.prefix;
        self.out.extend_from_slice(prefix);
        self.out_column += prefix.len() as i64;
        self.put_space(indent - self.out_column);
        let endline = self.word(w).next_break.saturating_sub(1).max(w);
        while w != endline {
            self.put_word(w);
            self.put_space(self.word(w).space);
            w += 1;
        }
        self.put_word(w);
        self.last_line_length = self.out_column;
        self.out.push(b'\n');
    }

    fn put_word(&mut self, index: usize) {
        let w = self.word(index);
        let start = w.text.min(self.parabuf.len());
        let end = (w.text + w.length.max(0) as usize).min(self.parabuf.len());
        self.out.extend_from_slice(self.parabuf.get(start..end).unwrap_or(&[]));
        self.out_column += w.length;
    }

    fn put_space(&mut self, space: i64) {
        let target = self.out_column + space;
        if self.tabs {
            let tab_target = target / TAB_WIDTH * TAB_WIDTH;
            if self.out_column + 1 < tab_target {
                while self.out_column < tab_target {
                    self.out.push(b'\t');
                    self.out_column = (self.out_column / TAB_WIDTH + 1) * TAB_WIDTH;
                }
            }
        }
        while self.out_column < target {
            self.out.push(b' ');
            self.out_column += 1;
        }
    }
}
