//! The names a `UserData` type registers (its fields and methods), read
//! by running its registration against a recorder instead of a Lua state:
//! for the API table's check (`api_doc`) and for filling the map's method
//! table before any run (`raw::fast`).

use mlua::{FromLuaMulti, IntoLua, IntoLuaMulti, Lua, UserData, UserDataFields, UserDataMethods};

/// Records the names a `UserData` type registers (fields and methods,
/// not metamethods), by running its registration against this recorder.
#[derive(Default)]
pub(crate) struct NameRecorder {
    pub fields: Vec<String>,
    pub methods: Vec<String>,
}

impl<T> UserDataFields<T> for NameRecorder {
    fn add_field<V: IntoLua + 'static>(&mut self, name: impl Into<String>, _: V) {
        self.fields.push(name.into());
    }
    fn add_field_method_get<M, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_method_set<M, A>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<()> + 'static,
        A: mlua::FromLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_function_get<F, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, mlua::AnyUserData) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_function_set<F, A>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, mlua::AnyUserData, A) -> mlua::Result<()> + 'static,
        A: mlua::FromLua,
    {
        self.fields.push(name.into());
    }
    fn add_meta_field<V: IntoLua + 'static>(&mut self, _: impl Into<String>, _: V) {}
    fn add_meta_field_with<F, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnOnce(&Lua) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
    }
}

impl<T> UserDataMethods<T> for NameRecorder {
    fn add_method<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_method_mut<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_function<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_function_mut<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_meta_method<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_method_mut<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function_mut<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
}

/// The method names `T` registers (not fields, not metamethods).
pub(crate) fn methods<T: UserData>() -> Vec<String> {
    let mut r = NameRecorder::default();
    T::add_methods(&mut r);
    r.methods
}
