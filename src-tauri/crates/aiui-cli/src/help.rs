//! `--help` in the person's language: each command's and argument's help from the `help-*` messages of cli.ftl
//! (one message per command, its arguments as attributes), and clap's own headings and flags from `cli-help-*`.
//! The doc comments on the argument structs are the English these messages were made from; a test keeps every
//! command and argument in the catalogue.

use clap::{Arg, ArgAction, Command};

use crate::l10n::t;

/// `command` and its subcommands with every help text, heading and help flag in the person's language.
pub fn in_language(command: Command) -> Command {
    let version = command.get_version().is_some();
    let mut command = localize(command, "");
    if version {
        command = command.disable_version_flag(true).arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(t("cli-help-version", &[]))
                .help_heading(t("cli-help-options", &[])),
        );
    }
    // clap makes its `help` subcommands when the command is built: build it here, then say their words too.
    command.build();
    with_help_subcommands_said(command)
}

fn with_help_subcommands_said(mut command: Command) -> Command {
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_owned()).collect();
    for name in names {
        command = command.mut_subcommand(&name, |sub| {
            if name == "help" { sub.about(t("cli-help-subcommand", &[])) } else { with_help_subcommands_said(sub) }
        });
    }
    command
}

/// The message that holds `command`'s help: `help-` and the names from the top, joined with `_`.
pub fn message_of(parent: &str, name: &str) -> String {
    if parent.is_empty() { format!("help-{name}") } else { format!("{parent}_{name}") }
}

/// The attribute of a command's message that holds argument `id`'s help.
pub fn attribute_of(id: &str) -> String {
    format!("arg-{id}")
}

/// Whether clap shows `arg` in the help at all (its own flags are added here, not from the catalogue).
pub fn is_shown(arg: &Arg) -> bool {
    !arg.is_hide_set() && !matches!(arg.get_id().as_str(), "help" | "version")
}

fn localize(mut command: Command, parent: &str) -> Command {
    let message = message_of(parent, command.get_name());
    command = command.about(t(&message, &[]));
    if command.get_long_about().is_some() {
        command = command.long_about(t(&format!("{message}.long"), &[]));
    }
    let (options, arguments) = (t("cli-help-options", &[]), t("cli-help-arguments", &[]));
    let ids: Vec<String> =
        command.get_arguments().filter(|a| is_shown(a)).map(|a| a.get_id().as_str().to_owned()).collect();
    for id in ids {
        let key = format!("{message}.{}", attribute_of(&id));
        command = command.mut_arg(&id, |arg| {
            let long = arg.get_long_help().is_some();
            let heading = if arg.is_positional() { arguments.clone() } else { options.clone() };
            let arg = if arg.get_help_heading().is_none() { arg.help_heading(heading) } else { arg };
            let notes = notes(&arg);
            let arg = if notes.is_empty() {
                arg
            } else {
                arg.hide_env(true).hide_default_value(true).hide_possible_values(true)
            };
            let arg = arg.help(format!("{}{notes}", t(&key, &[])));
            if long { arg.long_help(format!("{}{notes}", t(&format!("{key}-long"), &[]))) } else { arg }
        });
    }
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_owned()).collect();
    for name in names {
        command = command.mut_subcommand(&name, |sub| localize(sub, &message));
    }
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{} {{usage}}\n\n{{all-args}}{{after-help}}",
        t("cli-help-usage", &[])
    );
    command.help_template(template).subcommand_help_heading(t("cli-help-commands", &[])).disable_help_flag(true).arg(
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::Help)
            .help(t("cli-help-help", &[]))
            .help_heading(options),
    )
}

/// What clap adds after an argument's help (its environment variable, default, possible values), in the person's
/// language; clap's own are hidden in their favour.
fn notes(arg: &Arg) -> String {
    if !arg.get_action().takes_values() {
        return String::new();
    }
    let mut notes = Vec::new();
    if let Some(name) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
        notes.push(t("cli-help-env", &[("name", name.to_string_lossy().into_owned().into())]));
    }
    let defaults: Vec<String> = arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() {
        notes.push(t("cli-help-default", &[("value", defaults.join(" | ").into())]));
    }
    let possible: Vec<String> =
        arg.get_possible_values().iter().filter(|v| !v.is_hide_set()).map(|v| v.get_name().to_owned()).collect();
    if !possible.is_empty() && !arg.is_hide_possible_values_set() {
        notes.push(t("cli-help-possible", &[("values", possible.join(" | ").into())]));
    }
    notes.iter().map(|note| format!(" [{note}]")).collect()
}
