//! The paginator behind `pr`, following GNU pr's own state machine: pages
//! of a body between 5-line headers and trailers, text columns filled down
//! (stored and balanced) or across, files merged side by side (`-m`), line
//! numbers, separators, tab expansion and compression, form feeds in the
//! input, and page ranges. Inputs are held whole and read byte by byte.

/// Where a column's input stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Open,
    FfFound,
    OnHold,
    Closed,
}

/// One input, read byte by byte.
pub struct Input {
    /// Its bytes.
    pub data: Vec<u8>,
    /// The next byte to read.
    pub position: usize,
}

struct Column {
    input: usize,
    status: Status,
    storing: bool,
    current_line: usize,
    lines_stored: i64,
    lines_to_print: i64,
    start_position: i64,
    numbered: bool,
    full_page_printed: bool,
}

/// The options, after GNU's defaults and implications.
#[derive(Debug, Clone)]
pub struct Options {
    /// `-COLUMN`.
    pub columns: i64,
    /// A column count was given.
    pub explicit_columns: bool,
    /// `-a`.
    pub across: bool,
    /// `-m`.
    pub parallel: bool,
    /// `-d`.
    pub double_space: bool,
    /// `-F`/`-f`.
    pub form_feed: bool,
    /// `-h`.
    pub header: Option<String>,
    /// `-l`.
    pub lines_per_page: i64,
    /// `-n`.
    pub numbered: bool,
    /// `-n`'s separator.
    pub number_separator: u8,
    /// `-n`'s digits.
    pub chars_per_number: i64,
    /// `-N`.
    pub start_line_num: i64,
    /// `-N` was given.
    pub skip_count: bool,
    /// `-o`.
    pub margin: i64,
    /// `-w`/`-W`.
    pub chars_per_line: i64,
    /// Lines are truncated to their column.
    pub truncate_lines: bool,
    /// `-J`.
    pub join_lines: bool,
    /// A separator string is used.
    pub use_col_separator: bool,
    /// The separator string.
    pub col_sep: Vec<u8>,
    /// Headers and trailers are printed (not `-t`/`-T`).
    pub extremities: bool,
    /// Form feeds of the input are kept (`-t`).
    pub keep_ff: bool,
    /// `-e`.
    pub untabify_input: bool,
    /// `-e`'s character.
    pub input_tab_char: u8,
    /// `-e`'s width.
    pub chars_per_input_tab: i64,
    /// `-i`.
    pub tabify_output: bool,
    /// `-i`'s character.
    pub output_tab_char: u8,
    /// `-i`'s width.
    pub chars_per_output_tab: i64,
    /// `-v`.
    pub escapes: bool,
    /// `-c`.
    pub control_prefix: bool,
    /// Columns are stored and balanced (columns down, not `-a`).
    pub storing_columns: bool,
    /// Balance the last page's columns.
    pub balance_columns: bool,
    /// First page printed.
    pub first_page: u64,
    /// Last page printed.
    pub last_page: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            columns: 1,
            explicit_columns: false,
            across: false,
            parallel: false,
            double_space: false,
            form_feed: false,
            header: None,
            lines_per_page: 66,
            numbered: false,
            number_separator: b'\t',
            chars_per_number: 5,
            start_line_num: 1,
            skip_count: true,
            margin: 0,
            chars_per_line: 72,
            truncate_lines: false,
            join_lines: false,
            use_col_separator: false,
            col_sep: Vec::new(),
            extremities: true,
            keep_ff: false,
            untabify_input: false,
            input_tab_char: b'\t',
            chars_per_input_tab: 8,
            tabify_output: false,
            output_tab_char: b'\t',
            chars_per_output_tab: 8,
            escapes: false,
            control_prefix: false,
            storing_columns: true,
            balance_columns: false,
            first_page: 1,
            last_page: u64::MAX,
        }
    }
}

const LINES_PER_HEADER: i64 = 5;
const LINES_PER_FOOTER: i64 = 5;

/// Why a run stopped early.
pub enum PrError {
    /// `page width too narrow`.
    TooNarrow,
}

/// The whole paginating state of one `print_files` call.
pub struct Pr<'a> {
    o: Options,
    inputs: &'a mut [Input],
    columns_v: Vec<Column>,
    /// Output.
    pub out: Vec<u8>,
    /// Warnings for standard error.
    pub warnings: Vec<String>,
    lines_per_body: i64,
    chars_per_column: i64,
    number_width: i64,
    line_count: i64,
    line_number: i64,
    page_number: u64,
    files_ready_to_read: i64,
    output_position: i64,
    input_position: i64,
    spaces_not_printed: i64,
    separators_not_printed: i64,
    padding_not_printed: i64,
    pad_vertically: bool,
    align_empty_cols: bool,
    empty_line: bool,
    ff_only: bool,
    print_a_ff: bool,
    print_a_header: bool,
    last_line: bool,
    buff: Vec<u8>,
    line_vector: Vec<usize>,
    end_vector: Vec<i64>,
    clump: Vec<u8>,
    date_text: String,
    file_text: String,
    header_width_available: i64,
}

fn tab_width(c: i64, h: i64) -> i64 {
    if c <= 0 {
        return 1;
    }
    c - h.rem_euclid(c)
}

impl<'a> Pr<'a> {
    /// Sets up a run over `inputs` (one per column with `-m`, else one),
    /// with the header's date and name.
    pub fn new(
        options: &Options,
        inputs: &'a mut [Input],
        line_count: i64,
        date_text: String,
        file_text: String,
    ) -> Result<Pr<'a>, PrError> {
        let mut o = options.clone();
        let mut lines_per_body = o.lines_per_page - LINES_PER_HEADER - LINES_PER_FOOTER;
        if lines_per_body <= 0 {
            o.extremities = false;
            o.keep_ff = true;
        }
        if !o.extremities {
            lines_per_body = o.lines_per_page;
        }
        if o.double_space {
            lines_per_body /= 2;
        }
        if inputs.is_empty() {
            o.parallel = false;
        }
        if o.parallel {
            o.columns = inputs.len() as i64;
        }
        if o.storing_columns {
            o.balance_columns = true;
        }
        if o.columns > 1 {
            if !o.use_col_separator {
                o.col_sep = if o.join_lines { b"\t".to_vec() } else { b" ".to_vec() };
                o.use_col_separator = true;
            } else if !o.join_lines && o.col_sep == b"\t" {
                o.col_sep = b" ".to_vec();
            }
            o.truncate_lines = true;
            if o.col_sep != b"\t" {
                o.untabify_input = true;
            }
            o.tabify_output = true;
        } else {
            o.storing_columns = false;
        }
        if o.join_lines {
            o.truncate_lines = false;
        }
        let mut number_width = 0;
        let mut chars_used_by_number = 0;
        let mut line_count = line_count;
        if o.numbered {
            line_count = o.start_line_num;
            number_width =
                if o.number_separator == b'\t' { o.chars_per_number + tab_width(8, o.chars_per_number) } else { o.chars_per_number + 1 };
            if o.parallel {
                chars_used_by_number = number_width;
            }
        }
        let sep_chars = (o.columns - 1).saturating_mul(o.col_sep.len() as i64);
        let useful = o.chars_per_line.saturating_sub(chars_used_by_number).saturating_sub(sep_chars).max(0);
        let chars_per_column = useful / o.columns.max(1);
        if chars_per_column < 1 {
            return Err(PrError::TooNarrow);
        }
        let header_width_available = o.chars_per_line - date_text.chars().count() as i64 - file_text.chars().count() as i64;
        Ok(Pr {
            o,
            inputs,
            columns_v: Vec::new(),
            out: Vec::new(),
            warnings: Vec::new(),
            lines_per_body,
            chars_per_column,
            number_width,
            line_count,
            line_number: 0,
            page_number: 1,
            files_ready_to_read: 0,
            output_position: 0,
            input_position: 0,
            spaces_not_printed: 0,
            separators_not_printed: 0,
            padding_not_printed: 0,
            pad_vertically: false,
            align_empty_cols: false,
            empty_line: false,
            ff_only: false,
            print_a_ff: false,
            print_a_header: false,
            last_line: false,
            buff: Vec::new(),
            line_vector: Vec::new(),
            end_vector: Vec::new(),
            clump: Vec::new(),
            date_text,
            file_text,
            header_width_available,
        })
    }

    /// The line number the next file starts counting from.
    pub fn line_count(&self) -> i64 {
        self.line_count
    }

    fn getc(&mut self, input: usize) -> Option<u8> {
        let source = self.inputs.get_mut(input)?;
        let byte = source.data.get(source.position).copied();
        if byte.is_some() {
            source.position += 1;
        }
        byte
    }

    fn ungetc(&mut self, input: usize, byte: Option<u8>) {
        if byte.is_some() {
            if let Some(source) = self.inputs.get_mut(input) {
                source.position = source.position.saturating_sub(1);
            }
        }
    }

    fn column_count(&self) -> usize {
        self.columns_v.len()
    }

    fn cols_ready_to_print(&self) -> usize {
        self.columns_v
            .iter()
            .filter(|q| {
                q.status == Status::Open
                    || q.status == Status::FfFound
                    || (self.o.storing_columns && q.lines_stored > 0 && q.lines_to_print > 0)
            })
            .count()
    }

    /// Prints every page (GNU's `print_files` after the inputs are open).
    pub fn run(&mut self) {
        let columns = self.o.columns.max(1) as usize;
        let storing = self.o.storing_columns;
        if self.o.parallel {
            for index in 0..self.inputs.len() {
                self.columns_v.push(self.new_column(index));
            }
        } else {
            for _ in 0..columns {
                self.columns_v.push(self.new_column(0));
            }
        }
        self.files_ready_to_read = if self.o.parallel { self.inputs.len() as i64 } else { 1 };
        self.init_funcs(storing);
        if self.o.first_page > 1 {
            if !self.skip_to_page(self.o.first_page) {
                return;
            }
            self.page_number = self.o.first_page;
        } else {
            self.page_number = 1;
        }
        self.line_number = self.line_count;
        while self.print_page() {}
    }

    fn new_column(&self, input: usize) -> Column {
        Column {
            input,
            status: Status::Open,
            storing: false,
            current_line: 0,
            lines_stored: 0,
            lines_to_print: 0,
            start_position: 0,
            numbered: false,
            full_page_printed: false,
        }
    }

    fn init_funcs(&mut self, storing: bool) {
        let mut h = self.o.margin;
        let mut h_next = if !self.o.truncate_lines {
            0
        } else if self.o.parallel && self.o.numbered {
            h + self.chars_per_column + self.number_width
        } else {
            h + self.chars_per_column
        };
        let sep = self.o.col_sep.len() as i64;
        h += sep;
        let count = self.column_count();
        for index in 0..count {
            let last = index + 1 == count;
            let numbered = self.o.numbered && (!self.o.parallel || index == 0);
            let truncate = self.o.truncate_lines;
            let balance = self.o.balance_columns;
            let column = &mut self.columns_v[index];
            column.storing = if last { storing && balance } else { storing };
            column.numbered = numbered;
            column.start_position = h;
            if !last {
                if !truncate {
                    h = 0;
                    h_next = 0;
                } else {
                    h = h_next + sep;
                    h_next = h + self.chars_per_column;
                }
            }
        }
    }

    fn close_file(&mut self, index: usize) {
        if self.columns_v[index].status == Status::Closed {
            return;
        }
        if !self.o.parallel {
            for q in &mut self.columns_v {
                q.status = Status::Closed;
                if q.lines_stored == 0 {
                    q.lines_to_print = 0;
                }
            }
        } else {
            let p = &mut self.columns_v[index];
            p.status = Status::Closed;
            p.lines_to_print = 0;
        }
        self.files_ready_to_read -= 1;
    }

    fn hold_file(&mut self, index: usize) {
        if !self.o.parallel {
            let storing = self.o.storing_columns;
            for q in &mut self.columns_v {
                q.status = if storing { Status::FfFound } else { Status::OnHold };
            }
        } else {
            self.columns_v[index].status = Status::OnHold;
        }
        self.columns_v[index].lines_to_print = 0;
        self.files_ready_to_read -= 1;
    }

    fn reset_status(&mut self) {
        let mut ready = 0;
        for p in &mut self.columns_v {
            if p.status == Status::OnHold {
                p.status = Status::Open;
                ready += 1;
            }
        }
        self.files_ready_to_read += ready;
        if self.o.storing_columns {
            self.files_ready_to_read = i64::from(self.columns_v.first().is_some_and(|c| c.status != Status::Closed));
        }
    }

    fn init_page(&mut self) {
        if self.o.storing_columns {
            self.store_columns();
            let count = self.column_count();
            let body = self.lines_per_body;
            let balance = self.o.balance_columns;
            for (index, p) in self.columns_v.iter_mut().enumerate() {
                if index + 1 < count || balance {
                    p.lines_to_print = p.lines_stored;
                } else {
                    p.lines_to_print = if p.status == Status::Open { body } else { 0 };
                }
            }
        } else {
            let body = self.lines_per_body;
            for p in &mut self.columns_v {
                p.lines_to_print = if p.status == Status::Open { body } else { 0 };
            }
        }
    }

    fn align_column(&mut self, index: usize) {
        self.padding_not_printed = self.columns_v[index].start_position;
        let sep = self.o.col_sep.len() as i64;
        if sep < self.padding_not_printed {
            self.pad_across_to(self.padding_not_printed - sep);
            self.padding_not_printed = 0;
        }
        if self.o.use_col_separator {
            self.print_sep_string();
        }
        if self.columns_v[index].numbered {
            self.add_line_number(index);
        }
    }

    fn print_page(&mut self) -> bool {
        self.init_page();
        if self.cols_ready_to_print() == 0 {
            return false;
        }
        if self.o.extremities {
            self.print_a_header = true;
        }
        self.pad_vertically = false;
        let mut pv = false;
        let mut lines_left_on_page = self.lines_per_body;
        if self.o.double_space {
            lines_left_on_page *= 2;
        }
        while lines_left_on_page > 0 && self.cols_ready_to_print() > 0 {
            self.output_position = 0;
            self.spaces_not_printed = 0;
            self.separators_not_printed = 0;
            self.pad_vertically = false;
            self.align_empty_cols = false;
            self.empty_line = true;
            let count = self.column_count();
            for index in 0..count {
                self.input_position = 0;
                let (lines_to_print, status) = (self.columns_v[index].lines_to_print, self.columns_v[index].status);
                if lines_to_print > 0 || status == Status::FfFound {
                    self.ff_only = false;
                    self.padding_not_printed = self.columns_v[index].start_position;
                    let complete = if self.columns_v[index].storing { self.print_stored(index) } else { self.read_line(index) };
                    if !complete {
                        self.read_rest_of_line(index);
                    }
                    pv |= self.pad_vertically;
                    self.columns_v[index].lines_to_print -= 1;
                    if self.columns_v[index].lines_to_print <= 0 && self.cols_ready_to_print() == 0 {
                        break;
                    }
                    let status = self.columns_v[index].status;
                    if self.o.parallel && status != Status::Open {
                        if self.empty_line {
                            self.align_empty_cols = true;
                        } else if status == Status::Closed || (status == Status::OnHold && self.ff_only) {
                            self.align_column(index);
                        }
                    }
                } else if self.o.parallel {
                    if self.empty_line {
                        self.align_empty_cols = true;
                    } else {
                        self.align_column(index);
                    }
                }
                if self.o.use_col_separator {
                    self.separators_not_printed += 1;
                }
            }
            if self.pad_vertically {
                self.out.push(b'\n');
                lines_left_on_page -= 1;
            }
            if self.cols_ready_to_print() == 0 && !self.o.extremities {
                break;
            }
            if self.o.double_space && pv {
                self.out.push(b'\n');
                lines_left_on_page -= 1;
            }
        }
        if lines_left_on_page == 0 {
            for p in &mut self.columns_v {
                if p.status == Status::Open {
                    p.full_page_printed = true;
                }
            }
        }
        self.pad_vertically = pv;
        if self.pad_vertically && self.o.extremities {
            self.pad_down(lines_left_on_page + LINES_PER_FOOTER);
        } else if self.o.keep_ff && self.print_a_ff {
            self.out.push(0x0c);
            self.print_a_ff = false;
        }
        self.page_number = self.page_number.saturating_add(1);
        if self.o.last_page < self.page_number {
            return false;
        }
        self.reset_status();
        true
    }

    fn store_columns(&mut self) {
        let mut line = 0usize;
        let mut buff_start = 0usize;
        self.buff.clear();
        self.line_vector.clear();
        self.end_vector.clear();
        let count = self.column_count();
        let last_col = if self.o.balance_columns { count } else { count.saturating_sub(1) };
        for p in self.columns_v.iter_mut().take(last_col) {
            p.lines_stored = 0;
        }
        for index in 0..last_col {
            if self.files_ready_to_read == 0 {
                break;
            }
            self.columns_v[index].current_line = line;
            let mut j = self.lines_per_body;
            while j > 0 && self.files_ready_to_read > 0 {
                j -= 1;
                if self.columns_v[index].status == Status::Open {
                    self.input_position = 0;
                    if !self.read_line(index) {
                        self.read_rest_of_line(index);
                    }
                    if self.columns_v[index].status == Status::Open || buff_start != self.buff.len() {
                        self.columns_v[index].lines_stored += 1;
                        self.line_vector.push(buff_start);
                        self.end_vector.push(self.input_position);
                        line += 1;
                        buff_start = self.buff.len();
                    }
                }
            }
        }
        self.line_vector.push(buff_start);
        if self.o.balance_columns {
            let total = line as i64;
            let columns = count as i64;
            let mut first_line = 0usize;
            for (i, p) in self.columns_v.iter_mut().enumerate() {
                let mut lines = total / columns;
                if (i as i64) < total % columns {
                    lines += 1;
                }
                p.lines_stored = lines;
                p.current_line = first_line;
                first_line += lines as usize;
            }
        }
    }

    fn char_out(&mut self, index: usize, c: u8) {
        if self.columns_v[index].storing {
            self.buff.push(c);
        } else {
            self.print_char(c);
        }
    }

    fn add_line_number(&mut self, index: usize) {
        let text = format!("{:>width$}", self.line_number, width = self.o.chars_per_number.max(0) as usize);
        self.line_number += 1;
        let bytes = text.into_bytes();
        let skip = bytes.len().saturating_sub(self.o.chars_per_number.max(0) as usize);
        for &b in bytes.get(skip..).unwrap_or(&[]) {
            self.char_out(index, b);
        }
        if self.column_count() > 1 {
            if self.o.number_separator == b'\t' {
                for _ in 0..(self.number_width - self.o.chars_per_number).max(0) {
                    self.char_out(index, b' ');
                }
            } else {
                self.char_out(index, self.o.number_separator);
            }
        } else {
            self.char_out(index, self.o.number_separator);
            if self.o.number_separator == b'\t' {
                self.output_position += tab_width(self.o.chars_per_output_tab, self.output_position);
            }
        }
        if self.o.truncate_lines && !self.o.parallel {
            self.input_position += self.number_width;
        }
    }

    fn pad_across_to(&mut self, position: i64) {
        if self.o.tabify_output {
            self.spaces_not_printed = position - self.output_position;
        } else {
            let mut h = self.output_position;
            while {
                h += 1;
                h <= position
            } {
                self.out.push(b' ');
            }
            self.output_position = position;
        }
    }

    fn pad_down(&mut self, lines: i64) {
        if self.o.form_feed {
            self.out.push(0x0c);
        } else {
            for _ in 0..lines.max(0) {
                self.out.push(b'\n');
            }
        }
    }

    fn read_rest_of_line(&mut self, index: usize) {
        let input = self.columns_v[index].input;
        loop {
            let c = self.getc(input);
            match c {
                Some(b'\n') => break,
                Some(0x0c) => {
                    let next = self.getc(input);
                    if next != Some(b'\n') {
                        self.ungetc(input, next);
                    }
                    if self.o.keep_ff {
                        self.print_a_ff = true;
                    }
                    self.hold_file(index);
                    break;
                }
                None => {
                    self.close_file(index);
                    break;
                }
                _ => {}
            }
        }
    }

    fn skip_read(&mut self, index: usize, column_number: usize) {
        let input = self.columns_v[index].input;
        let mut c = self.getc(input);
        if c == Some(0x0c) && self.columns_v[index].full_page_printed {
            c = self.getc(input);
            if c == Some(b'\n') {
                c = self.getc(input);
            }
        }
        self.columns_v[index].full_page_printed = false;
        let single_ff = c == Some(0x0c);
        if self.last_line {
            self.columns_v[index].full_page_printed = true;
        }
        while c != Some(b'\n') {
            match c {
                Some(0x0c) => {
                    if self.last_line {
                        if !self.o.parallel {
                            for q in &mut self.columns_v {
                                q.full_page_printed = false;
                            }
                        } else {
                            self.columns_v[index].full_page_printed = false;
                        }
                    }
                    let next = self.getc(input);
                    if next != Some(b'\n') {
                        self.ungetc(input, next);
                    }
                    self.hold_file(index);
                    break;
                }
                None => {
                    self.close_file(index);
                    break;
                }
                _ => {}
            }
            c = self.getc(input);
        }
        if self.o.skip_count && (!self.o.parallel || column_number == 1) && !single_ff {
            self.line_count += 1;
        }
    }

    fn print_white_space(&mut self) {
        let mut h_old = self.output_position;
        let goal = h_old + self.spaces_not_printed;
        loop {
            let h_new = h_old + tab_width(self.o.chars_per_output_tab, h_old);
            if !(goal - h_old > 1 && h_new <= goal) {
                break;
            }
            self.out.push(self.o.output_tab_char);
            h_old = h_new;
        }
        while {
            h_old += 1;
            h_old <= goal
        } {
            self.out.push(b' ');
        }
        self.output_position = goal;
        self.spaces_not_printed = 0;
    }

    fn print_sep_string(&mut self) {
        if self.separators_not_printed <= 0 {
            if self.spaces_not_printed > 0 {
                self.print_white_space();
            }
            return;
        }
        let sep = self.o.col_sep.clone();
        // GNU's count of separator bytes runs out after the first separator.
        let mut left = sep.len();
        let mut at = 0;
        while self.separators_not_printed > 0 {
            while left > 0 {
                left -= 1;
                let Some(&byte) = sep.get(at) else { break };
                at += 1;
                if byte == b' ' {
                    self.spaces_not_printed += 1;
                } else {
                    if self.spaces_not_printed > 0 {
                        self.print_white_space();
                    }
                    self.out.push(byte);
                    self.output_position += 1;
                }
            }
            if self.spaces_not_printed > 0 {
                self.print_white_space();
            }
            self.separators_not_printed -= 1;
        }
    }

    fn print_char(&mut self, c: u8) {
        if self.o.tabify_output {
            if c == b' ' {
                self.spaces_not_printed += 1;
                return;
            } else if self.spaces_not_printed > 0 {
                self.print_white_space();
            }
            if !(0x20..0x7f).contains(&c) {
                if c == 8 {
                    self.output_position -= 1;
                }
            } else {
                self.output_position += 1;
            }
        }
        self.out.push(c);
    }

    fn skip_to_page(&mut self, page: u64) -> bool {
        let mut n = 1;
        while n < page {
            for _ in 1..self.lines_per_body {
                for j in 0..self.column_count() {
                    if self.columns_v[j].status == Status::Open {
                        self.skip_read(j, j + 1);
                    }
                }
            }
            self.last_line = true;
            for j in 0..self.column_count() {
                if self.columns_v[j].status == Status::Open {
                    self.skip_read(j, j + 1);
                }
            }
            if self.o.storing_columns {
                for p in &mut self.columns_v {
                    if p.status != Status::Closed {
                        p.status = Status::OnHold;
                    }
                }
            }
            self.reset_status();
            self.last_line = false;
            if self.files_ready_to_read < 1 {
                self.warnings.push(format!("starting page number {page} exceeds page count {n}"));
                break;
            }
            n += 1;
        }
        self.files_ready_to_read > 0
    }

    fn print_header(&mut self) {
        self.output_position = 0;
        self.pad_across_to(self.o.margin);
        self.print_white_space();
        let page_text = format!("Page {}", self.page_number);
        let available = (self.header_width_available - page_text.len() as i64).max(0);
        let lhs = available >> 1;
        let rhs = available - lhs;
        let pad = |n: i64| " ".repeat(n.max(1) as usize);
        let text = format!(
            "\n\n{}{}{}{}{}{}\n\n\n",
            " ".repeat(self.o.margin.max(0) as usize),
            self.date_text,
            pad(lhs),
            self.file_text,
            pad(rhs),
            page_text
        );
        self.out.extend_from_slice(text.as_bytes());
        self.print_a_header = false;
        self.output_position = 0;
    }

    fn read_line(&mut self, index: usize) -> bool {
        let input = self.columns_v[index].input;
        let mut c = self.getc(input);
        let mut last_input_position = self.input_position;
        if c == Some(0x0c) && self.columns_v[index].full_page_printed {
            c = self.getc(input);
            if c == Some(b'\n') {
                c = self.getc(input);
            }
        }
        self.columns_v[index].full_page_printed = false;
        let mut chars = 0;
        match c {
            Some(0x0c) => {
                let next = self.getc(input);
                if next != Some(b'\n') {
                    self.ungetc(input, next);
                }
                self.ff_only = true;
                if self.print_a_header && !self.o.storing_columns {
                    self.pad_vertically = true;
                    self.print_header();
                } else if self.o.keep_ff {
                    self.print_a_ff = true;
                }
                self.hold_file(index);
                return true;
            }
            None => {
                self.close_file(index);
                return true;
            }
            Some(b'\n') => {}
            Some(byte) => chars = self.char_to_clump(byte),
        }
        if self.o.truncate_lines && self.input_position > self.chars_per_column {
            self.input_position = last_input_position;
            return false;
        }
        if !self.columns_v[index].storing {
            self.pad_vertically = true;
            if self.print_a_header && !self.o.storing_columns {
                self.print_header();
            }
            if self.o.parallel && self.align_empty_cols {
                let k = self.separators_not_printed;
                self.separators_not_printed = 0;
                for j in 0..k.max(0) as usize {
                    if j < self.column_count() {
                        self.align_column(j);
                    }
                    self.separators_not_printed += 1;
                }
                self.padding_not_printed = self.columns_v[index].start_position;
                self.spaces_not_printed = if self.o.truncate_lines { self.chars_per_column } else { 0 };
                self.align_empty_cols = false;
            }
            let sep = self.o.col_sep.len() as i64;
            if sep < self.padding_not_printed {
                self.pad_across_to(self.padding_not_printed - sep);
                self.padding_not_printed = 0;
            }
            if self.o.use_col_separator {
                self.print_sep_string();
            }
        }
        if self.columns_v[index].numbered {
            self.add_line_number(index);
        }
        self.empty_line = false;
        if c == Some(b'\n') {
            return true;
        }
        self.print_clump(index, chars);
        loop {
            let c = self.getc(input);
            match c {
                Some(b'\n') => return true,
                Some(0x0c) => {
                    let next = self.getc(input);
                    if next != Some(b'\n') {
                        self.ungetc(input, next);
                    }
                    if self.o.keep_ff {
                        self.print_a_ff = true;
                    }
                    self.hold_file(index);
                    return true;
                }
                None => {
                    self.close_file(index);
                    return true;
                }
                Some(byte) => {
                    last_input_position = self.input_position;
                    let chars = self.char_to_clump(byte);
                    if self.o.truncate_lines && self.input_position > self.chars_per_column {
                        self.input_position = last_input_position;
                        return false;
                    }
                    self.print_clump(index, chars);
                }
            }
        }
    }

    fn print_clump(&mut self, index: usize, chars: usize) {
        let clump = std::mem::take(&mut self.clump);
        for &b in clump.iter().take(chars) {
            self.char_out(index, b);
        }
        self.clump = clump;
    }

    fn print_stored(&mut self, index: usize) -> bool {
        let line = self.columns_v[index].current_line;
        self.columns_v[index].current_line += 1;
        let first = self.line_vector.get(line).copied().unwrap_or(0);
        let last = self.line_vector.get(line + 1).copied().unwrap_or(first);
        self.pad_vertically = true;
        if self.print_a_header {
            self.print_header();
        }
        if self.columns_v[index].status == Status::FfFound {
            for q in &mut self.columns_v {
                q.status = Status::OnHold;
            }
            if self.columns_v.first().is_some_and(|c| c.lines_to_print <= 0) {
                if !self.o.extremities {
                    self.pad_vertically = false;
                }
                return true;
            }
        }
        let sep = self.o.col_sep.len() as i64;
        if sep < self.padding_not_printed {
            self.pad_across_to(self.padding_not_printed - sep);
            self.padding_not_printed = 0;
        }
        if self.o.use_col_separator {
            self.print_sep_string();
        }
        let bytes = self.buff.get(first..last).unwrap_or(&[]).to_vec();
        for b in bytes {
            self.print_char(b);
        }
        if self.spaces_not_printed == 0 {
            let start = self.columns_v[index].start_position;
            self.output_position = start + self.end_vector.get(line).copied().unwrap_or(0);
            if start - sep == self.o.margin {
                self.output_position -= sep;
            }
        }
        true
    }

    fn char_to_clump(&mut self, c: u8) -> usize {
        self.clump.clear();
        let chars_per_c = if c == self.o.input_tab_char { self.o.chars_per_input_tab } else { 8 };
        let width: i64;
        let chars: usize;
        if c == self.o.input_tab_char || c == b'\t' {
            width = tab_width(chars_per_c, self.input_position);
            if self.o.untabify_input {
                self.clump.extend(std::iter::repeat_n(b' ', width.max(0) as usize));
                chars = width.max(0) as usize;
            } else {
                self.clump.push(c);
                chars = 1;
            }
        } else if !(0x20..0x7f).contains(&c) {
            if self.o.escapes || (self.o.control_prefix && c >= 0x80) {
                width = 4;
                chars = 4;
                self.clump.extend_from_slice(format!("\\{c:03o}").as_bytes());
            } else if self.o.control_prefix {
                width = 2;
                chars = 2;
                self.clump.push(b'^');
                self.clump.push(c ^ 0x40);
            } else if c == 8 {
                width = -1;
                chars = 1;
                self.clump.push(c);
            } else {
                width = 0;
                chars = 1;
                self.clump.push(c);
            }
        } else {
            width = 1;
            chars = 1;
            self.clump.push(c);
        }
        if width < 0 && self.input_position == 0 {
            self.input_position = 0;
            return 0;
        } else if width < 0 && self.input_position <= -width {
            self.input_position = 0;
        } else {
            self.input_position += width;
        }
        chars
    }
}
