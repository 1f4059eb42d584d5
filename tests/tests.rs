//! Integration tests: the built binary and the library, end to end.

mod util;

mod bad_input;
mod check;
mod check_html;
mod check_shard;
mod cli;
mod deadline;
mod dependent;
mod differential;
mod equivalence;
mod exports;
mod files;
mod fuzz;
mod game;
mod golden;
mod hostile;
mod json_schema;
mod ldtk;
mod levels;
mod library;
mod luajit;
mod marker_looks;
mod properties;
mod pure_lua;
mod reference;
mod replay;
mod session;
mod sheet;
mod tiled_clients;
mod toolkit;
mod wfc;
mod window;
