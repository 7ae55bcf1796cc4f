entry @ptr_attr_casts_f32_i32(%arg0: tile<ptr<f32, <none>>>, %arg1: tile<ptr<i32>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %5 = broadcast %4 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %13 = ptr_to_int %12 : tile<128xptr<f32, <none>>> -> tile<128xi64>
  %14 = int_to_ptr %13 : tile<128xi64> -> tile<128xptr<f32, <none>>>
  %15 = ptr_to_ptr %14 : tile<128xptr<f32, <none>>> -> tile<128xptr<i32, <none>>>
  %16 = ptr_to_ptr %15 : tile<128xptr<i32, <none>>> -> tile<128xptr<i32>>
  %17 = ptr_to_int %16 : tile<128xptr<i32>> -> tile<128xi64>
  %18 = ptr_to_int %arg0 : tile<ptr<f32, <none>>> -> tile<i64>
  %19 = reshape %18 : tile<i64> -> tile<1xi64>
  %20 = broadcast %19 : tile<1xi64> -> tile<128xi64>
  %21 = subi %17, %20 : tile<128xi64>
  %22 = constant <i64: 0> : tile<128xi64>
  %23 = cmpi greater_than_or_equal %21, %22, signed : tile<128xi64> -> tile<128xi1>
  %24 = constant <i64: 4> : tile<i64>
  %25 = muli %arg2, %24 : tile<i64>
  %26 = subi %25, %24 : tile<i64>
  %27 = reshape %26 : tile<i64> -> tile<1xi64>
  %28 = broadcast %27 : tile<1xi64> -> tile<128xi64>
  %29 = cmpi less_than_or_equal %21, %28, signed : tile<128xi64> -> tile<128xi1>
  %30 = andi %23, %29 : tile<128xi1>
  assert %30, "kernel `ptr_attr_casts_f32_i32`: `load_ptr_tko`: a lane addresses memory outside argument 0 (In) (at pointers.py:157)" : tile<128xi1>
  %31, %32 = load_ptr_tko weak %16 token=%0 : tile<128xptr<i32>> -> tile<128xi32>, token
  %33 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %34 = make_tensor_view %33, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %35 = make_partition_view %34 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %36 = store_view_tko weak %31, %35[%1] token = %32 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
  return
}
