-- Headless: no window, no graphics, no sound; the game prints and quits.
function love.conf(t)
  t.identity = "dunlua-love-test"
  t.window = false
  t.modules.window = false
  t.modules.graphics = false
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
