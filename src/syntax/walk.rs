//! A mutable walk over every node of a syntax tree, used to fill in
//! here-document bodies after they are read and to clear spans when two
//! trees are compared.

use super::ast::{
    Argument, ArithExpr, AssignValue, Assignment, Command, CompoundCommand, CondExpr, List, ListItem, ParamOp, Redirect, RedirectTarget,
    Span, Subscript, Word, WordPart,
};

/// What a walk does at the nodes it visits; every method defaults to nothing.
pub trait VisitMut {
    /// Called for every span.
    fn span(&mut self, _span: &mut Span) {}
    /// Called for every here-document body, before its parts are walked.
    fn heredoc_body(&mut self, _body: &mut Word) {}
}

/// Walks a list.
pub fn walk_list<V: VisitMut>(visitor: &mut V, list: &mut List) {
    walk_items(visitor, &mut list.items);
}

/// Walks the items of a list.
pub fn walk_items<V: VisitMut>(visitor: &mut V, items: &mut [ListItem]) {
    for item in items {
        visitor.span(&mut item.span);
        let and_or = &mut item.and_or;
        let pipelines = std::iter::once(&mut and_or.first).chain(and_or.rest.iter_mut().map(|(_, p)| p));
        for pipeline in pipelines {
            visitor.span(&mut pipeline.span);
            for command in &mut pipeline.commands {
                walk_command(visitor, command);
            }
        }
    }
}

fn walk_command<V: VisitMut>(visitor: &mut V, command: &mut Command) {
    match command {
        Command::Simple(simple) => {
            visitor.span(&mut simple.span);
            for assignment in &mut simple.assignments {
                walk_assignment(visitor, assignment);
            }
            for argument in &mut simple.words {
                match argument {
                    Argument::Word(word) => walk_word(visitor, word),
                    Argument::Assignment(assignment) => walk_assignment(visitor, assignment),
                }
            }
            walk_redirects(visitor, &mut simple.redirects);
        }
        Command::Compound(compound, redirects, span) => {
            visitor.span(span);
            walk_compound(visitor, compound);
            walk_redirects(visitor, redirects);
        }
        Command::FunctionDef(function) => {
            visitor.span(&mut function.span);
            walk_compound(visitor, &mut function.body);
            walk_redirects(visitor, &mut function.redirects);
        }
    }
}

fn walk_compound<V: VisitMut>(visitor: &mut V, compound: &mut CompoundCommand) {
    match compound {
        CompoundCommand::BraceGroup(list) | CompoundCommand::Subshell(list) => walk_list(visitor, list),
        CompoundCommand::If { branches, else_body } => {
            for (condition, body) in branches {
                walk_list(visitor, condition);
                walk_list(visitor, body);
            }
            if let Some(body) = else_body {
                walk_list(visitor, body);
            }
        }
        CompoundCommand::For { words, body, .. } | CompoundCommand::Select { words, body, .. } => {
            for word in words.iter_mut().flatten() {
                walk_word(visitor, word);
            }
            walk_list(visitor, body);
        }
        CompoundCommand::ArithFor { init, condition, step, body } => {
            for expr in [init, condition, step].into_iter().flatten() {
                walk_arith(visitor, expr);
            }
            walk_list(visitor, body);
        }
        CompoundCommand::While { condition, body } | CompoundCommand::Until { condition, body } => {
            walk_list(visitor, condition);
            walk_list(visitor, body);
        }
        CompoundCommand::Case { word, clauses } => {
            walk_word(visitor, word);
            for clause in clauses {
                for pattern in &mut clause.patterns {
                    walk_word(visitor, pattern);
                }
                walk_list(visitor, &mut clause.body);
            }
        }
        CompoundCommand::Arith(expr) => walk_arith(visitor, expr),
        CompoundCommand::Cond(expr) => walk_cond(visitor, expr),
        CompoundCommand::Coproc { body, .. } => walk_command(visitor, body),
    }
}

fn walk_cond<V: VisitMut>(visitor: &mut V, expr: &mut CondExpr) {
    match expr {
        CondExpr::Unary(_, word) | CondExpr::Word(word) => walk_word(visitor, word),
        CondExpr::Binary(_, left, right) | CondExpr::Regex(left, right) => {
            walk_word(visitor, left);
            walk_word(visitor, right);
        }
        CondExpr::Not(inner) | CondExpr::Group(inner) => walk_cond(visitor, inner),
        CondExpr::And(left, right) | CondExpr::Or(left, right) => {
            walk_cond(visitor, left);
            walk_cond(visitor, right);
        }
    }
}

fn walk_redirects<V: VisitMut>(visitor: &mut V, redirects: &mut [Redirect]) {
    for redirect in redirects {
        visitor.span(&mut redirect.span);
        match &mut redirect.target {
            RedirectTarget::Word(word) => walk_word(visitor, word),
            RedirectTarget::HereDoc(heredoc) => {
                visitor.heredoc_body(&mut heredoc.body);
                walk_word(visitor, &mut heredoc.body);
            }
        }
    }
}

fn walk_assignment<V: VisitMut>(visitor: &mut V, assignment: &mut Assignment) {
    visitor.span(&mut assignment.span);
    if let Some(index) = &mut assignment.index {
        walk_word(visitor, index);
    }
    match &mut assignment.value {
        AssignValue::Scalar(word) => walk_word(visitor, word),
        AssignValue::Array(elements) => {
            for element in elements {
                if let Some(index) = &mut element.index {
                    walk_word(visitor, index);
                }
                walk_word(visitor, &mut element.value);
            }
        }
    }
}

/// Walks a word.
pub fn walk_word<V: VisitMut>(visitor: &mut V, word: &mut Word) {
    visitor.span(&mut word.span);
    walk_parts(visitor, &mut word.parts);
}

fn walk_parts<V: VisitMut>(visitor: &mut V, parts: &mut [WordPart]) {
    for part in parts {
        match part {
            WordPart::DoubleQuoted(inner) | WordPart::LocaleQuoted(inner) => walk_parts(visitor, inner),
            WordPart::Param(param) => {
                if let Some(Subscript::Expr(word)) = &mut param.index {
                    walk_word(visitor, word);
                }
                if let Some(op) = &mut param.op {
                    walk_param_op(visitor, op);
                }
            }
            WordPart::CommandSub { body, .. } | WordPart::ProcessSub { body, .. } => walk_list(visitor, body),
            WordPart::Arith(expr) => walk_arith(visitor, expr),
            WordPart::BraceList(words) | WordPart::ExtGlob { patterns: words, .. } => {
                for word in words {
                    walk_word(visitor, word);
                }
            }
            _ => {}
        }
    }
}

fn walk_param_op<V: VisitMut>(visitor: &mut V, op: &mut ParamOp) {
    match op {
        ParamOp::Default { word, .. }
        | ParamOp::Assign { word, .. }
        | ParamOp::Error { word, .. }
        | ParamOp::Alternative { word, .. }
        | ParamOp::RemovePrefix { pattern: word, .. }
        | ParamOp::RemoveSuffix { pattern: word, .. } => walk_word(visitor, word),
        ParamOp::Replace { pattern, replacement, .. } => {
            walk_word(visitor, pattern);
            if let Some(word) = replacement {
                walk_word(visitor, word);
            }
        }
        ParamOp::Substring { offset, length } => {
            walk_word(visitor, offset);
            if let Some(word) = length {
                walk_word(visitor, word);
            }
        }
        ParamOp::Case { pattern, .. } => {
            if let Some(word) = pattern {
                walk_word(visitor, word);
            }
        }
        ParamOp::Transform(_) | ParamOp::PrefixNames { .. } => {}
    }
}

fn walk_arith<V: VisitMut>(visitor: &mut V, expr: &mut ArithExpr) {
    match expr {
        ArithExpr::Expansion(word) => walk_word(visitor, word),
        ArithExpr::Element(_, inner) | ArithExpr::Unary(_, inner) | ArithExpr::Source(_, inner) => walk_arith(visitor, inner),
        ArithExpr::IncDec { target, .. } => walk_arith(visitor, target),
        ArithExpr::Binary(_, left, right) | ArithExpr::Assign(_, left, right) | ArithExpr::Comma(left, right) => {
            walk_arith(visitor, left);
            walk_arith(visitor, right);
        }
        ArithExpr::Conditional(condition, then, otherwise) => {
            walk_arith(visitor, condition);
            walk_arith(visitor, then);
            walk_arith(visitor, otherwise);
        }
        ArithExpr::Number(_) | ArithExpr::Variable(_) | ArithExpr::Invalid(_) => {}
    }
}

/// Clears every span (for comparing trees by structure only).
pub fn clear_spans(list: &mut List) {
    struct Clear;
    impl VisitMut for Clear {
        fn span(&mut self, span: &mut Span) {
            *span = Span::default();
        }
    }
    walk_list(&mut Clear, list);
}
