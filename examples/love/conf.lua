function love.conf(t)
  t.identity = "dunlua-example"
  t.window.title = "dunlua in LÖVE"
  t.window.width = 960
  t.window.height = 600
  t.window.resizable = true
  t.modules.audio = false
  t.modules.sound = false
  t.modules.physics = false
  t.modules.joystick = false
  t.modules.video = false
end
