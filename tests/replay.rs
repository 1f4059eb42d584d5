//! Recording generation for the window's replay: steps per primitive call
//! and per `map:snapshot`, stored as changes.

use dunlua::script::{self, Request};

use crate::util::{root, Scratch};

#[test]
fn rooms_records_a_step_per_changing_call_and_replays_to_the_final_map() {
    let mut request = Request::new(root().join("scripts/rooms.lua"), 7);
    request.record = true;
    let g = script::run(&request).unwrap();
    let replay = g.replay.expect("recorded");
    let labels: Vec<&str> = replay.steps().iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels[0], "carve_room", "fill on a new map changes nothing");
    let rooms = g.map.rooms().len();
    assert_eq!(labels.iter().filter(|l| **l == "carve_room").count(), rooms);
    assert!(labels.iter().filter(|l| **l == "l_tunnel").count() < rooms);
    let mut cells = replay.initial().to_vec();
    replay.seek(&mut cells, 0, replay.len());
    assert_eq!(cells, g.map.cells());

    let plain = script::run(&Request::new(root().join("scripts/rooms.lua"), 7)).unwrap();
    assert!(plain.replay.is_none(), "text and files record nothing");
    assert_eq!(plain.map, g.map, "recording does not change the map");
}

#[test]
fn snapshots_label_steps_and_big_maps_store_changes_only() {
    let scratch = Scratch::new();
    let path = scratch.write(
        "big.lua",
        "return { width = 1000, height = 1000, generate = function(map, rng)\n\
           map:fill(\"floor\")\n\
           map:snapshot(\"open floor\")\n\
           for i = 1, 3000 do map:set(rng:int(1000), rng:int(1000), \"wall\") ; map:snapshot(\"pillar \" .. i) end\n\
           map:set(0, 0, \"floor\") ; map:set_start(0, 0)\n\
         end }\n",
    );
    let mut request = Request::new(path, 3);
    request.record = true;
    let g = script::run(&request).unwrap();
    let replay = g.replay.unwrap();
    assert_eq!(replay.steps()[1].label, "open floor");
    assert!(replay.steps()[1].changes.is_empty());
    assert!(replay.len() > 5000, "{} steps", replay.len());
    // One fill of a million cells plus a few thousand single cells: no copies.
    assert!(
        replay.change_count() < 1_000_000 + 7_000,
        "{}",
        replay.change_count()
    );
}
