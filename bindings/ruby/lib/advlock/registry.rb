# frozen_string_literal: true

module Advlock
  # A registry file (TOML) naming each lock and its key, read by the advlock
  # core: the same file the command line and every binding read.
  class Registry
    # Raises RegistryError ("file:line: ...") or FileError.
    def self.open(path) = new(Native::NativeRegistry.open(path.to_s))
    def self.parse(text, origin = "<registry>") = new(Native::NativeRegistry.parse(text, origin))

    def initialize(native)
      @native = native
    end

    # The key of the named lock; raises NotFound (naming the closest name). An
    # entry without a key of its own locks its name: the key keeps the name
    # (Key#name), as MySQL locks names.
    def key(name)
      entry = @native.find(name.to_s)
      Key.from_native(entry.key)
    end

    # The registry's name for key, or nil.
    def name_of(key)
      name = key.with_native { |k| @native.find_key(k).name }
      name.empty? ? nil : name
    end

    def size = @native.size
    # @api private
    def native = @native
  end
end
