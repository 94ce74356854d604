//! Synchronizer profiles: how to run one synchronizer, and which of the
//! model's documented freedoms it takes.
//!
//! The model ([`crate::model`]) is Balasubramaniam and Pierce's
//! reconciliation, strict by default: a path changed on one side
//! propagates whole (contents, permission bits, directories, symbolic
//! links), a path changed on both sides differently is a conflict left
//! alone, exit 0 synced, 1 conflicts left, 2 stopped early (any of the
//! changes made, nothing else), 3 fatal (nothing changed). Real
//! synchronizers document other choices; a profile names them, and the
//! model honours exactly those:
//!
//! | freedom | what the model then expects |
//! |---|---|
//! | `conflict_rename = [pa, pb]` | a file or link changed on both sides is renamed in both replicas: A's version to `pa`, B's to `pb` (`{name}` the old name), the old name gone; the run counts as finished, no conflict left |
//! | `change_beats_delete` | a path deleted on one side and changed on the other gets the changed side's version on both |
//! | `no_directories` | only files (and links) are reconciled: a directory is made only to hold a copied file (mode 755), never removed, its mode never copied; a copy blocked by a directory or a file in its way stops the run |
//! | `no_modes` | permission bits are not compared or copied: a new copy gets 644 (files) or 755 (directories), an overwritten file keeps its bits |
//! | `no_symlinks` | symbolic links are not seen: never copied or removed by themselves (removing or replacing what holds them removes them) |
//! | `timestamps` | a write is a change even when it leaves the contents as they were (changes are judged by modification time) |
//!
//! Exit codes come in five kinds ([`ExitCodes`]); `abort` is a safety
//! abort after which the synchronizer refuses to run until its set-up run
//! is made again (rclone bisync's lockout): the session makes it before
//! the next synchronization, and the model expects that. The set-up run
//! ([`Setup`]) is made before the first synchronization of a replica pair;
//! its effect on the replicas is declared (`none`, or a merge preferring
//! one side).
//!
//! A profile asking for something the model cannot express is an error
//! naming it ([`ProfileError`]), never a looser model.
//!
//! Profiles are written in TOML or JSON ([`Profile::load`], [`Profile::parse`]):
//!
//! ```toml
//! name = "rclone bisync"
//! command = "rclone bisync {a} {b} --workdir {state} --force"
//! env = { HOME = "{state}", XDG_CACHE_HOME = "{state}", XDG_CONFIG_HOME = "{state}" }
//! install = "apt-get install -y rclone"
//!
//! [setup]
//! command = "rclone bisync {a} {b} --workdir {state} --resync"
//! effect = "merge-prefer-a"
//!
//! [exit]
//! synced = [0]
//! conflicts = []
//! stopped = [1]
//! fatal = [3]
//! abort = [2]
//!
//! [freedoms]
//! conflict_rename = ["{name}..path1", "{name}..path2"]
//! change_beats_delete = true
//! no_directories = true
//! no_modes = true
//! no_symlinks = true
//! timestamps = true
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// How to run a synchronizer and which freedoms it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// What reports call it.
    pub name: String,
    /// A shell command line: `{a}` and `{b}` the replicas, `{state}` a
    /// directory for the synchronizer's own state (its working directory).
    pub command: String,
    /// A set-up run before the first synchronization of a replica pair
    /// (and after a safety abort).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// Environment variables of both runs (`{a}`, `{b}`, `{state}` expanded).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// How to install the program when it is missing (said in the error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install: Option<String>,
    /// What its exit codes mean.
    #[serde(default)]
    pub exit: ExitCodes,
    /// The model's freedoms it takes.
    #[serde(default)]
    pub freedoms: Freedoms,
}

/// The set-up run of a replica pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// A shell command line, as [`Profile::command`].
    pub command: String,
    /// What it does to the replicas.
    #[serde(default)]
    pub effect: SetupEffect,
}

/// What a set-up run does to the replicas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupEffect {
    /// Nothing (it only makes the synchronizer's own state).
    #[default]
    None,
    /// Both replicas end up with every entry of either; where both have
    /// one and they differ, A's wins (rclone bisync's `--resync`: "Path2
    /// files that do not exist in Path1 will be copied to Path1, and the
    /// process will then sync the Path1 tree to Path2"). With
    /// `no_directories`, only files and links are merged, and the sync
    /// removes B's directories that A lacks.
    MergePreferA,
    /// The same, B's winning (and A's directories that B lacks removed).
    MergePreferB,
}

/// Exit codes by meaning. The kinds may not share a code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExitCodes {
    /// Every change propagated, no conflict left.
    pub synced: Vec<i64>,
    /// Every change propagated, conflicts left alone.
    pub conflicts: Vec<i64>,
    /// Stopped early: any of the changes made, nothing else.
    pub stopped: Vec<i64>,
    /// A replica's root is missing: nothing changed.
    pub fatal: Vec<i64>,
    /// A safety abort: as stopped, and the synchronizer refuses to run
    /// again until the set-up run is repeated (needs a [`Setup`]).
    pub abort: Vec<i64>,
}

impl Default for ExitCodes {
    fn default() -> Self {
        ExitCodes { synced: vec![0], conflicts: vec![1], stopped: vec![2], fatal: vec![3], abort: Vec::new() }
    }
}

/// The model's freedoms a synchronizer takes (all off: the strict model).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Freedoms {
    /// Conflicts resolved by renaming: A's version to the first pattern,
    /// B's to the second (`{name}`: the conflicting entry's name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict_rename: Option<[String; 2]>,
    /// A deletion on one side and a change on the other: the change wins.
    pub change_beats_delete: bool,
    /// Directories are not propagated (see the module docs).
    pub no_directories: bool,
    /// Permission bits are not propagated.
    pub no_modes: bool,
    /// Symbolic links are not seen.
    pub no_symlinks: bool,
    /// Changes are judged by modification time: a write is a change.
    pub timestamps: bool,
}

/// The freedoms a profile may name.
pub const FREEDOMS: [&str; 6] =
    ["conflict_rename", "change_beats_delete", "no_directories", "no_modes", "no_symlinks", "timestamps"];

/// A profile that cannot be read, or asks for what the model cannot
/// express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileError(pub String);

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProfileError {}

/// The command Unison is tested with: batch mode, no question about
/// deleting a whole replica, quiet.
pub const UNISON: &str = "unison {a} {b} -batch -confirmbigdel=false -silent";

/// The built-in profiles' names (besides the bundled reference, whose
/// command is the caller's: [`Profile::reference`]).
pub const BUILTIN: [&str; 2] = ["unison", "rclone-bisync"];

impl Profile {
    /// The strict model, for a command.
    pub fn strict(name: impl Into<String>, command: impl Into<String>) -> Self {
        Profile {
            name: name.into(),
            command: command.into(),
            setup: None,
            env: BTreeMap::new(),
            install: None,
            exit: ExitCodes::default(),
            freedoms: Freedoms::default(),
        }
    }

    /// The bundled reference synchronizer (`refsync`, run as `command`):
    /// the strict model; it does not see symbolic links (its documentation
    /// says so).
    pub fn reference(command: impl Into<String>) -> Self {
        let mut p = Profile::strict("bundled reference synchronizer", command);
        p.freedoms.no_symlinks = true;
        p
    }

    /// Unison (Debian's `unison`): the strict model, with `$UNISON` and
    /// `$HOME` in the state directory so nothing of the user's is read or
    /// written.
    pub fn unison() -> Self {
        let mut p = Profile::strict("Unison", UNISON);
        p.env = BTreeMap::from([("UNISON".into(), "{state}".into()), ("HOME".into(), "{state}".into())]);
        p.install = Some("apt-get install -y unison".into());
        p
    }

    /// rclone bisync (Debian's `rclone`, local directories), as its manual
    /// (rclone 1.60, "Bisync") documents it: a `--resync` first (Path1's
    /// version wins where both have a file), files only ("new empty
    /// directories on one path are not propagated"), no permission bits,
    /// symbolic links skipped, changes by modification time, conflicts
    /// renamed `..path1`/`..path2`, a deletion against a change lost to
    /// the change ("Path2 newer AND Path1 deleted: Path2 version
    /// survives"), exit 1 a non-critical failure, 2 a critical abort that
    /// "requires a `--resync` to recover", 3 "directory not found" (rclone's
    /// exit codes: a replica's root is missing). `--force` turns off the
    /// too-many-deletes abort, as `-confirmbigdel=false` does for Unison.
    pub fn rclone_bisync() -> Self {
        let state = "{state}".to_string();
        Profile {
            name: "rclone bisync".into(),
            command: "rclone bisync {a} {b} --workdir {state} --force".into(),
            setup: Some(Setup {
                command: "rclone bisync {a} {b} --workdir {state} --resync".into(),
                effect: SetupEffect::MergePreferA,
            }),
            env: BTreeMap::from([
                ("HOME".into(), state.clone()),
                ("XDG_CACHE_HOME".into(), state.clone()),
                ("XDG_CONFIG_HOME".into(), state),
            ]),
            install: Some("apt-get install -y rclone".into()),
            exit: ExitCodes { synced: vec![0], conflicts: vec![], stopped: vec![1], fatal: vec![3], abort: vec![2] },
            freedoms: Freedoms {
                conflict_rename: Some(["{name}..path1".into(), "{name}..path2".into()]),
                change_beats_delete: true,
                no_directories: true,
                no_modes: true,
                no_symlinks: true,
                timestamps: true,
            },
        }
    }

    /// A built-in profile by name ([`BUILTIN`]).
    pub fn builtin(name: &str) -> Option<Self> {
        match name {
            "unison" => Some(Profile::unison()),
            "rclone-bisync" => Some(Profile::rclone_bisync()),
            _ => None,
        }
    }

    /// Reads a profile file: TOML, or JSON when its name ends in `.json`.
    pub fn load(path: &Path) -> Result<Self, ProfileError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ProfileError(format!("could not read the profile {}: {e}", path.display())))?;
        let json = path.extension().is_some_and(|e| e == "json");
        Profile::parse(&text, json).map_err(|e| ProfileError(format!("profile {}: {e}", path.display())))
    }

    /// Parses a profile (TOML, or JSON) and checks it ([`Profile::validate`]).
    pub fn parse(text: &str, json: bool) -> Result<Self, ProfileError> {
        let value: Json = if json {
            serde_json::from_str(text).map_err(|e| ProfileError(format!("not JSON: {e}")))?
        } else {
            toml::from_str(text).map_err(|e| ProfileError(format!("not TOML: {e}")))?
        };
        // Unknown keys are named before serde sees them, with what is known.
        known_keys(&value, "", &["name", "command", "setup", "env", "install", "exit", "freedoms"], "setting")?;
        known_keys(&value, "setup", &["command", "effect"], "set-up setting")?;
        known_keys(&value, "exit", &["synced", "conflicts", "stopped", "fatal", "abort"], "exit-code kind")?;
        known_keys(&value, "freedoms", &FREEDOMS, "freedom")?;
        let profile: Profile = serde_json::from_value(value).map_err(|e| ProfileError(e.to_string()))?;
        profile.validate()?;
        Ok(profile)
    }

    /// Checks that the model can express what the profile asks for.
    pub fn validate(&self) -> Result<(), ProfileError> {
        let err = |m: String| Err(ProfileError(format!("profile {:?}: {m}", self.name)));
        for (what, cmd) in
            std::iter::once(("command", &self.command)).chain(self.setup.as_ref().map(|s| ("setup", &s.command)))
        {
            if !(cmd.contains("{a}") && cmd.contains("{b}")) {
                return err(format!("its {what} must name both replicas, {{a}} and {{b}}: `{cmd}`"));
            }
        }
        let e = &self.exit;
        if e.synced.is_empty() {
            return err("exit code kind `synced` is empty: no run could ever finish".into());
        }
        let kinds = [
            ("synced", &e.synced),
            ("conflicts", &e.conflicts),
            ("stopped", &e.stopped),
            ("fatal", &e.fatal),
            ("abort", &e.abort),
        ];
        for (i, (k1, c1)) in kinds.iter().enumerate() {
            for (k2, c2) in &kinds[i + 1..] {
                if let Some(c) = c1.iter().find(|c| c2.contains(c)) {
                    return err(format!(
                        "exit code {c} is both `{k1}` and `{k2}`: the model cannot tell what it means"
                    ));
                }
            }
        }
        if !e.abort.is_empty() && self.setup.is_none() {
            return err("exit code kind `abort` needs a set-up run to recover with ([setup]): without one the model cannot say what follows an abort".into());
        }
        let f = &self.freedoms;
        if let Some([pa, pb]) = &f.conflict_rename {
            for p in [pa, pb] {
                if !p.contains("{name}") || p.contains('/') || p.replace("{name}", "x") == "x" {
                    return err(format!(
                        "freedom `conflict_rename`: the pattern {p:?} must hold {{name}}, add to it, and stay in the entry's directory"
                    ));
                }
            }
            if pa == pb {
                return err("freedom `conflict_rename`: both sides' patterns are the same, so one copy would overwrite the other".into());
            }
            if !f.no_directories {
                return err("freedom `conflict_rename` needs `no_directories`: the model renames conflicting files and links, not directories".into());
            }
        }
        if f.timestamps && !f.no_directories {
            return err(
                "freedom `timestamps` needs `no_directories`: the model judges writes as changes of files only".into(),
            );
        }
        Ok(())
    }

    /// Whether the profile takes no freedom and uses the default exit codes.
    pub fn is_strict(&self) -> bool {
        self.freedoms == Freedoms::default() && self.exit == ExitCodes::default() && self.setup.is_none()
    }

    /// The freedoms it takes, as a profile names them.
    pub fn freedoms_taken(&self) -> Vec<&'static str> {
        let f = &self.freedoms;
        let on = [
            f.conflict_rename.is_some(),
            f.change_beats_delete,
            f.no_directories,
            f.no_modes,
            f.no_symlinks,
            f.timestamps,
        ];
        FREEDOMS.iter().zip(on).filter(|(_, on)| *on).map(|(n, _)| *n).collect()
    }
}

/// Errors for keys of the table at `at` (`""`: the top) outside `known`.
fn known_keys(value: &Json, at: &str, known: &[&str], what: &str) -> Result<(), ProfileError> {
    let table = if at.is_empty() { Some(value) } else { value.get(at) };
    let Some(map) = table.and_then(Json::as_object) else { return Ok(()) };
    for key in map.keys() {
        if !known.contains(&key.as_str()) {
            let place = if at.is_empty() { String::new() } else { format!(" in [{at}]") };
            return Err(ProfileError(format!(
                "unknown {what} `{key}`{place}: the model knows {}",
                known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_profiles_are_valid_and_round_trip_through_toml_and_json() {
        for p in [Profile::unison(), Profile::rclone_bisync(), Profile::reference("refsync {a} {b} {state}")] {
            p.validate().unwrap();
            let toml = toml::to_string(&p).unwrap();
            assert_eq!(Profile::parse(&toml, false).unwrap(), p, "{toml}");
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(Profile::parse(&json, true).unwrap(), p, "{json}");
        }
        assert!(Profile::unison().is_strict());
        assert_eq!(Profile::reference("x {a} {b}").freedoms_taken(), vec!["no_symlinks"]);
    }

    #[test]
    fn the_module_docs_example_is_the_rclone_profile() {
        let doc = include_str!("profile.rs");
        let start = doc.find("//! ```toml\n").unwrap() + "//! ```toml\n".len();
        let end = start + doc[start..].find("//! ```").unwrap();
        let text: String =
            doc[start..end].lines().map(|l| l.trim_start_matches("//!").trim_start()).collect::<Vec<_>>().join("\n");
        assert_eq!(Profile::parse(&text, false).unwrap(), Profile::rclone_bisync());
    }

    #[test]
    fn the_readme_profile_sample_is_the_rclone_profile() {
        let readme = include_str!("../../../README.md");
        let start = readme.find("```toml\nname = \"rclone bisync\"").expect("the README's profile sample") + 8;
        let end = start + readme[start..].find("```").unwrap();
        assert_eq!(Profile::parse(&readme[start..end], false).unwrap(), Profile::rclone_bisync());
    }

    #[test]
    fn what_the_model_cannot_express_is_an_error_naming_it() {
        let base = "name = \"s\"\ncommand = \"s {a} {b}\"\n";
        let cases = [
            ("[freedoms]\nmerges_contents = true\n", "unknown freedom `merges_contents`"),
            ("[exit]\ncrashed = [4]\n", "unknown exit-code kind `crashed`"),
            ("watch = true\n", "unknown setting `watch`"),
            ("[exit]\nabort = [2]\nstopped = [4]\n", "`abort` needs a set-up run"),
            ("[exit]\nstopped = [0]\n", "exit code 0 is both `synced` and `stopped`"),
            ("[exit]\nsynced = []\n", "`synced` is empty"),
            (
                "[freedoms]\nconflict_rename = [\"{name}.a\", \"{name}.b\"]\n",
                "`conflict_rename` needs `no_directories`",
            ),
            (
                "[freedoms]\nno_directories = true\nconflict_rename = [\"{name}\", \"{name}.b\"]\n",
                "must hold {name}, add to it",
            ),
            ("[freedoms]\ntimestamps = true\n", "`timestamps` needs `no_directories`"),
            ("[setup]\ncommand = \"init\"\n", "setup must name both replicas"),
            ("[setup]\ncommand = \"s {a} {b}\"\neffect = \"merge-newest\"\n", "merge-newest"),
        ];
        for (extra, expected) in cases {
            let e = Profile::parse(&format!("{base}{extra}"), false).unwrap_err();
            assert!(e.0.contains(expected), "{extra:?}: {e}");
        }
        let e = Profile::parse(r#"{"name": "s", "command": "s {a}"}"#, true).unwrap_err();
        assert!(e.0.contains("{b}"), "{e}");
    }
}
