-- wrk script for the conversation route of `nlu serve --dialogue` (issue 43's target: >= 3,000 turns/s,
-- p99 < 20 ms on 2 cores). Each request is one turn of one of 1,000 conversations, with an already parsed
-- car-dashboard message (the dialogue step and the store, no intents model), or with text when
-- NLUKIT_WRK_TEXT=1 (the intents model parses it too).
--   wrk -t2 -c64 -d15s --latency -s benchmarks/dialogue_wrk.lua http://127.0.0.1:PORT
local parsed = {
  '{"message": {"text": "turn on the lights", "intents": [{"intent": "turn_on", "confidence": 0.9}], "entities": [{"entity": "appliance", "value": "lights"}]}}',
  '{"message": {"text": "turn off the lights", "intents": [{"intent": "turn_off", "confidence": 0.9}], "entities": [{"entity": "appliance", "value": "lights"}]}}',
  '{"message": {"text": "hello", "intents": [{"intent": "greetings", "confidence": 0.9}], "entities": []}}',
  '{"message": {"text": "what is the weather", "intents": [{"intent": "weather", "confidence": 0.9}], "entities": []}}',
}
local texts = {
  '{"text": "turn on the lights"}', '{"text": "switch the radio on"}', '{"text": "what is the weather like"}',
  '{"text": "turn off the wipers"}',
}
local bodies = os.getenv("NLUKIT_WRK_TEXT") == "1" and texts or parsed
local counter = 0
local thread_id = 0
local threads = 0

function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end

function request()
  counter = counter + 1
  local conversation = string.format("wrk-%d-%d", thread_id, counter % 1000)
  return wrk.format("POST", "/conversations/" .. conversation .. "/messages",
                    {["Content-Type"] = "application/json"}, bodies[(counter % #bodies) + 1])
end

function response(status, headers, body)
  if status ~= 200 then
    wrk.thread:stop()
  end
end
